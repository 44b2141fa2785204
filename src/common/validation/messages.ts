import { ValidationArguments } from 'class-validator';

/** Names a JSON value's type the way the error messages do: undefined, null, array, string, ... */
export function describeType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** class-validator message: "Expected <what>, received <type of the value>". */
export function expected(what: string): (args: ValidationArguments) => string {
  return (args) => `Expected ${what}, received ${describeType(args.value)}`;
}
