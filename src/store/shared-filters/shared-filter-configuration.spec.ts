import { completeFilterFields, normalizeSharedFilterConfiguration } from './shared-filter-configuration';

const EMPTY_FIELDS = {
  costLayers: [],
  clouds: [],
  services: [],
  resourceFamilies: [],
  regions: [],
  instanceTypes: [],
  usageTypes: [],
  billingPeriods: [],
  dateRange: null,
  costTypes: [],
  accountIds: [],
  integrationIds: [],
  resourceTag: null,
  resourceTagValues: [],
  costCategory: null,
  costCategoryValues: [],
  billingCurrencies: [],
  allocatedMethods: [],
};

describe('normalizeSharedFilterConfiguration', () => {
  it('fills every default for an empty configuration', () => {
    expect(normalizeSharedFilterConfiguration({})).toEqual({
      filters: { inclusions: EMPTY_FIELDS, exclusions: EMPTY_FIELDS },
      groupBy: { dateGrouping: 'daily', dimension: null },
      metric: 'amortized_cost',
      comparisonEnabled: false,
      metadata: { name: '', description: '' },
    });
  });

  it('treats null like omitted', () => {
    expect(
      normalizeSharedFilterConfiguration({
        filters: { inclusions: null, exclusions: { dateRange: null, resourceTag: null, services: null } },
        groupBy: { dateGrouping: null, dimension: null },
        metric: null,
        comparisonEnabled: null,
        metadata: { name: null, description: null },
      }),
    ).toEqual(normalizeSharedFilterConfiguration({}));
  });

  it('keeps given values exactly and lists fields in the spec order', () => {
    const fields = {
      costCategoryValues: ['Platform'],
      costCategory: 'Business Unit',
      dateRange: { start: '2026-10-01', end: '2026-10-31' },
      services: ['Amazon EC2', 'Amazon S3'],
      resourceTag: 'env',
      resourceTagValues: ['prod', '(not set)'],
      billingPeriods: ['2026-10'],
    };
    const complete = completeFilterFields(fields);
    expect(complete).toEqual({ ...EMPTY_FIELDS, ...fields });
    expect(Object.keys(complete)).toEqual(Object.keys(EMPTY_FIELDS));
  });

  it('is idempotent, so a stored configuration reads back unchanged', () => {
    const once = normalizeSharedFilterConfiguration({
      filters: { exclusions: { clouds: ['Azure'] } },
      groupBy: { dimension: 'tag:env' },
      metric: 'effective_savings_rate',
      comparisonEnabled: true,
      metadata: { name: 'n' },
    });
    expect(normalizeSharedFilterConfiguration(once)).toEqual(once);
    expect(normalizeSharedFilterConfiguration(JSON.parse(JSON.stringify(once)))).toEqual(once);
  });

  it('copies lists rather than sharing them with the input', () => {
    const services = ['Amazon EC2'];
    const complete = completeFilterFields({ services });
    services.push('changed');
    expect(complete.services).toEqual(['Amazon EC2']);
  });
});
