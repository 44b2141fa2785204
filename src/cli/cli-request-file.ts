import { readFileSync } from 'node:fs';
import type { Type } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import { ApiValidationPipe } from '../common/validation/api-validation.pipe';

/** A request body kept in a JSON file, checked by its request DTO exactly as the API checks the body of that request. */
export async function readRequestFile<T>(file: string, dto: Type<T>): Promise<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidRequestException([`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidRequestException([`${file}: not JSON`]);
  }
  return (await new ApiValidationPipe().transform(body, { type: 'body', metatype: dto })) as T;
}
