import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const BILLING_PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** `YYYY-MM-DD` (the spec's pattern) that is also a real calendar date, e.g. not 2026-02-30. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function isBillingPeriod(value: unknown): value is string {
  return typeof value === 'string' && BILLING_PERIOD.test(value);
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args: ValidationArguments) =>
          typeof args.value === 'string' && ISO_DATE.test(args.value)
            ? `"${args.value}" is not a real calendar date`
            : 'Expected a date in YYYY-MM-DD format (pattern ^\\d{4}-\\d{2}-\\d{2}$)',
        ...options,
      },
      validator: { validate: (value: unknown) => isCalendarDate(value) },
    });
}

/** On an object with `start` and `end`: start must not be after end (both ends are inclusive). */
export function IsStartNotAfterEnd(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStartNotAfterEnd',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'start must be on or before end', ...options },
      validator: {
        validate(_value: unknown, args: ValidationArguments) {
          const range = args.object as { start?: unknown; end?: unknown };
          if (!isCalendarDate(range.start) || !isCalendarDate(range.end)) return true; // reported by the field rules
          return range.start <= range.end;
        },
      },
    });
}

export function IsBillingPeriod(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBillingPeriod',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'Expected a billing period in yyyy-MM format, e.g. 2026-10', each: true, ...options },
      validator: { validate: (value: unknown) => isBillingPeriod(value) },
    });
}
