import { monthsOf, readsOnlyListColumns } from './converted-sums.query';
import { Filters, OrganizationScope } from './filters.types';
import { DimensionRef } from './dimension-registry';

const scope: OrganizationScope = { organizationId: '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d' };
const question = (filters: Filters, dimensions: DimensionRef[] = [], dataScope?: Filters) => ({
  scope: { ...scope, dataScope },
  filters,
  dimensions,
});

describe('converted sums', () => {
  it('answer questions on list columns and dates, never one on a tag or a cost category', () => {
    expect(
      readsOnlyListColumns(question({ inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' }, services: ['S3'] } })),
    ).toBe(true);
    expect(readsOnlyListColumns(question({ exclusions: { billingCurrencies: ['EUR'] } }, [{ kind: 'column', name: 'account' }]))).toBe(
      true,
    );
    // A key spelled null is unset (JSON clients and shared-filter reads spell it so).
    const unsetKeys = { resourceTag: null, costCategory: null } as unknown as Filters['inclusions'];
    expect(readsOnlyListColumns(question({ inclusions: unsetKeys }))).toBe(true);
    expect(readsOnlyListColumns(question({}, [{ kind: 'tag', key: 'team' }]))).toBe(false);
    expect(readsOnlyListColumns(question({}, [{ kind: 'costCategory', key: 'Business Unit' }]))).toBe(false);
    expect(readsOnlyListColumns(question({ inclusions: { resourceTag: 'team' } }))).toBe(false);
    expect(readsOnlyListColumns(question({ exclusions: { costCategory: 'Business Unit', costCategoryValues: ['R&D'] } }))).toBe(false);
    expect(readsOnlyListColumns(question({}, [], { inclusions: { resourceTag: 'team', resourceTagValues: ['web'] } }))).toBe(false);
  });

  it('are built a month at a time, over every month with costs', () => {
    expect(
      monthsOf([
        { currency: 'EUR', billingPeriod: '2026-11', firstDay: '2026-11-03', lastDay: '2027-01-02' },
        { currency: 'USD', billingPeriod: '2026-10', firstDay: '2026-10-31', lastDay: '2026-10-31' },
        { currency: 'USD', billingPeriod: '2026-12', firstDay: '2026-12-01', lastDay: '2026-12-31' },
      ]),
    ).toEqual(['2026-10-01', '2026-11-01', '2026-12-01', '2027-01-01']);
    expect(monthsOf([])).toEqual([]);
  });
});
