import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { InvalidRequestException } from '../errors/api-errors';
import { describeType } from './messages';
import { formatValidationErrors } from './validation-errors';

/**
 * Keys that class-transformer never copies onto a DTO instance, so the whitelist never sees them:
 * reported as unknown fields from the raw body instead of passing silently.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates bodies against their DTO classes. Unknown fields are errors, not silently dropped:
 * a typo such as `filters.inclusions.service` must not widen a cost query.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Strings stay strings: no implicit conversion of "1" to 1 or of 1 to "1".
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new InvalidRequestException(formatValidationErrors(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isDtoClass(metadata.metatype)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new InvalidRequestException([`body: Expected object, received ${describeType(value)}`]);
      }
    }
    const prototypeKeys = prototypeKeyPaths(value).map((path) => `${path}: unknown field`);
    let validated: unknown;
    try {
      validated = await this.inner.transform(value, metadata);
    } catch (error) {
      if (error instanceof InvalidRequestException && prototypeKeys.length) {
        throw new InvalidRequestException([...error.details, ...prototypeKeys]);
      }
      throw error;
    }
    if (prototypeKeys.length) throw new InvalidRequestException(prototypeKeys);
    return validated;
  }
}

function isDtoClass(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![String, Boolean, Number, Array, Object].includes(metatype as never);
}

/** Full paths (`filters.inclusions.__proto__`) of every own PROTOTYPE_KEYS key in a parsed JSON value. */
function prototypeKeyPaths(value: unknown): string[] {
  const paths: string[] = [];
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      item.forEach((element, index) => pending.push([element, `${path}[${index}]`]));
      continue;
    }
    for (const key of Object.keys(item)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) paths.push(keyPath);
      else pending.push([(item as Record<string, unknown>)[key], keyPath]);
    }
  }
  return paths.sort();
}
