import { ValidationError } from 'class-validator';

/**
 * Flattens class-validator's error tree into `path: detail` lines with full paths
 * (`filters.inclusions.services[2]: Expected string, received number`).
 */
export function formatValidationErrors(errors: ValidationError[], parentPath = ''): string[] {
  const details: string[] = [];
  for (const error of errors) {
    const path = joinPath(parentPath, error.property);
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation) {
      details.push(`${path}: unknown field`);
    } else {
      // Report only the first failing rule per field: the later ones are usually consequences of it.
      const first = Object.values(constraints)[0];
      if (first) details.push(elementDetail(path, first) ?? `${path}: ${first}`);
    }
    if (error.children?.length) details.push(...formatValidationErrors(error.children, path));
  }
  return details;
}

/**
 * A rule that checks array elements may name the offending one by starting its message with `[<index>] `;
 * the index then joins the path (`fields[2]: …`) instead of the message.
 */
function elementDetail(path: string, message: string): string | undefined {
  const element = /^\[(\d+)\] ([\s\S]*)$/.exec(message);
  return element ? `${path}[${element[1]}]: ${element[2]}` : undefined;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}
