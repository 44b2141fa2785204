import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { InvalidRequestException } from '../errors/api-errors';
import { describeType } from './messages';
import { formatValidationErrors } from './validation-errors';

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
    return this.inner.transform(value, metadata);
  }
}

function isDtoClass(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![String, Boolean, Number, Array, Object].includes(metatype as never);
}
