import { registerDecorator, ValidationArguments } from 'class-validator';
import { isCalendarDate, isSupportedDate, SUPPORTED_DATES } from '../dates/calendar-date';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const BILLING_PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The supported dates as a sentence, for messages and Swagger. */
export const SUPPORTED_DATES_TEXT = `from ${SUPPORTED_DATES.first} to ${SUPPORTED_DATES.last}`;

/** A billing period (`yyyy-MM`) whose month lies within SUPPORTED_DATES. */
export function isBillingPeriod(value: unknown): value is string {
  return typeof value === 'string' && BILLING_PERIOD.test(value) && isSupportedDate(`${value}-01`);
}

/**
 * A rule this API writes itself, as a property decorator: `problem` returns what is wrong with the value
 * (the 400's detail; an element's may start with `[<index>] `, which the formatter moves into the path)
 * or undefined when it is fine. The one helper behind every custom rule.
 */
export function Rule(name: string, problem: (value: unknown, object: Record<string, unknown>) => string | undefined): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (args: ValidationArguments) => problem(args.value, args.object as Record<string, unknown>) ?? 'invalid value' },
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          problem(value, (args?.object ?? {}) as Record<string, unknown>) === undefined,
      },
    });
}

/** `YYYY-MM-DD`, a real calendar date, within SUPPORTED_DATES. */
export const IsCalendarDate = () =>
  Rule('isCalendarDate', (value) => {
    if (typeof value !== 'string' || !ISO_DATE.test(value)) return 'Expected a date in YYYY-MM-DD format (pattern ^\\d{4}-\\d{2}-\\d{2}$)';
    if (!isCalendarDate(value)) return `"${value}" is not a real calendar date`;
    if (!isSupportedDate(value)) return `"${value}" is outside the supported dates (${SUPPORTED_DATES_TEXT})`;
    return undefined;
  });

/** On an object with `start` and `end`: start must not be after end (both ends are inclusive). */
export const IsStartNotAfterEnd = () =>
  Rule('isStartNotAfterEnd', (_value, range) =>
    // Dates that are not dates are reported by the field rules.
    isCalendarDate(range.start) && isCalendarDate(range.end) && range.start > range.end ? 'start must be on or before end' : undefined,
  );

/** Every element a billing period (yyyy-MM) within SUPPORTED_DATES; a value that is not a list is IsArray's to report. */
export const IsBillingPeriod = () =>
  Rule('isBillingPeriod', (value) => {
    const periods = Array.isArray(value) ? value : [value];
    if (periods.every(isBillingPeriod)) return undefined;
    const outside = periods.find(
      (period: unknown) => typeof period === 'string' && BILLING_PERIOD.test(period) && !isBillingPeriod(period),
    );
    return outside === undefined
      ? 'Expected a billing period in yyyy-MM format, e.g. 2026-10'
      : `"${outside}" is outside the supported billing periods (${SUPPORTED_DATES.first.slice(0, 7)} to ${SUPPORTED_DATES.last.slice(0, 7)})`;
  });
