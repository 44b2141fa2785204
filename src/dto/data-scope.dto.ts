import { ApiValidationPipe } from '../common/validation/api-validation.pipe';
import { canonicalDataScope } from '../cost-query/data-scope';
import { DataScopeDto } from './filters.dto';

/**
 * A data scope as given when a key is created (JSON: Filters without dates), validated by the request
 * rules of Filters (unknown fields, types, list and string lengths, a key's values only with the key;
 * `dateRange` and `billingPeriods` refused), as its canonical JSON ('' when it restricts nothing).
 * Throws InvalidRequestException naming each offending path.
 */
export async function validDataScope(value: unknown): Promise<string> {
  const scope = (await new ApiValidationPipe().transform(value, { type: 'body', metatype: DataScopeDto })) as DataScopeDto;
  return canonicalDataScope(scope);
}
