import { describeType } from '../common/validation/messages';
import { Rule } from '../common/validation/validators';
import { DATE_GROUPINGS, DateGrouping } from '../cost-query/date-bucketing';
import { DIMENSIONS, MAX_MAP_KEY_LENGTH, parseDimension } from '../cost-query/dimension-registry';

/** Most dimensions one multi-dimension grouping may combine (each one multiplies the result rows). */
export const MAX_GROUPING_DIMENSIONS = 3;

/** The accepted forms of a grouping dimension, for error messages and Swagger descriptions. */
export const DIMENSION_FORMS = `one of ${DIMENSIONS.join(', ')}, or tag:<tag key>, or costCategory:<category key> (key of 1 to ${MAX_MAP_KEY_LENGTH} characters)`;

/** Swagger `pattern` of a grouping dimension (the validators check the same forms, with the key length bound). */
export const DIMENSION_PATTERN = `^(${DIMENSIONS.join('|')}|tag:.+|costCategory:.+)$`;

/** A received value as error messages show it: strings quoted (and shortened), other types by name. */
export function describeReceived(value: unknown): string {
  if (typeof value !== 'string') return describeType(value);
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

export function isDateGrouping(value: unknown): value is DateGrouping {
  return typeof value === 'string' && (DATE_GROUPINGS as readonly string[]).includes(value);
}

/** `daily`, `weekly` or `monthly`; anything else (including undefined) is "Expected one of …, received …". */
export const IsDateGrouping = () =>
  Rule('isDateGrouping', (value) =>
    isDateGrouping(value) ? undefined : `Expected one of ${DATE_GROUPINGS.join(', ')}, received ${describeReceived(value)}`,
  );

/** One grouping dimension: a registry name, `tag:<key>` or `costCategory:<key>` (see parseDimension). */
export const IsGroupingDimension = () => Rule('isGroupingDimension', dimensionProblem);

/** A list of 1 to MAX_GROUPING_DIMENSIONS distinct grouping dimensions, validated as a whole. */
export const IsGroupingDimensionList = () => Rule('isGroupingDimensionList', dimensionListProblem);

function dimensionProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && parseDimension(value)) return undefined;
  return `Expected a dimension (${DIMENSION_FORMS}), received ${describeReceived(value)}`;
}

function dimensionListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `Expected array of strings, received ${describeType(value)}`;
  if (value.length < 1 || value.length > MAX_GROUPING_DIMENSIONS) {
    return `Expected 1 to ${MAX_GROUPING_DIMENSIONS} dimensions, received ${value.length}`;
  }
  for (const [index, item] of value.entries()) {
    const problem = dimensionProblem(item);
    if (problem) return `[${index}] ${problem}`;
    if (value.indexOf(item) !== index) return `[${index}] ${JSON.stringify(item)} is listed twice; dimensions must be distinct`;
  }
  return undefined;
}
