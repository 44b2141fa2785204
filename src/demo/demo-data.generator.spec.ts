import { addDays } from '../common/dates/calendar-date';
import { MEASURE_COLUMNS, SAVINGS_SOURCES } from '../cost-query/metrics';
import { ACCOUNTS, CLOUDS, CloudName } from './demo-estate.catalog';
import {
  buildDemoEstate,
  COST_TYPES,
  DEMO_DEFAULT_DAYS,
  demoWindow,
  DemoCostRow,
  formatMicros,
  generateDemoRows,
} from './demo-data.generator';
import { withoutDefaults } from './demo-data.loader';

const ORG = '3f2b8c1e-7d4a-4e9b-9c2d-5a1f0e6b7c8d';
const TODAY = '2026-11-21';

function generate(from: string, to: string, seed = 42, organizationId = ORG): DemoCostRow[] {
  const rows: DemoCostRow[] = [];
  for (const day of generateDemoRows({ organizationId, from, to, seed })) rows.push(...day);
  return rows;
}

/** Exact value of a money string in micro-dollars (the generator writes 6 decimals). */
function micros(value: string): bigint {
  const match = /^(-?)(\d+)\.(\d{6})$/.exec(value);
  if (!match) throw new Error(`not a 6-decimal amount: ${value}`);
  const magnitude = BigInt(match[2]) * 1_000_000n + BigInt(match[3]);
  return match[1] ? -magnitude : magnitude;
}

const MONEY_COLUMNS = MEASURE_COLUMNS;

const USAGE_COST_TYPES: string[] = [COST_TYPES.usage, COST_TYPES.savingsPlanCovered, COST_TYPES.reservationCovered];

function totalSavings(row: DemoCostRow): bigint {
  return SAVINGS_SOURCES.reduce((sum, source) => sum + micros(row[source]), 0n);
}

function sumBy(rows: DemoCostRow[], key: (row: DemoCostRow) => string, column: (typeof MONEY_COLUMNS)[number] = 'amortized_cost') {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + Number(row[column]));
  return sums;
}

describe('demo data generator', () => {
  const { from, to } = demoWindow(DEMO_DEFAULT_DAYS, TODAY);
  let rows: DemoCostRow[];
  beforeAll(() => {
    rows = generate(from, to);
  });

  describe('window and determinism', () => {
    it('spans the default 396 days ending yesterday', () => {
      expect(demoWindow(396, TODAY)).toEqual({ from: '2025-10-21', to: '2026-11-20' });
      expect(demoWindow(1, '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
      const dates = new Set(rows.map((r) => r.usage_date));
      expect(dates.size).toBe(396);
      expect([...dates].sort()[0]).toBe(from);
      expect([...dates].sort().at(-1)).toBe(to);
    });

    it('is the same for the same seed, and different for another seed', () => {
      const window = { from: '2026-02-25', to: '2026-03-03' };
      const first = generate(window.from, window.to, 7);
      expect(generate(window.from, window.to, 7)).toEqual(first);
      const other = generate(window.from, window.to, 8);
      expect(other.map((r) => r.amortized_cost)).not.toEqual(first.map((r) => r.amortized_cost));
    });

    it('gives the same rows for a day whatever the span, when the last day is the same', () => {
      const short = generate(addDays(to, -9), to);
      const long = rows.filter((r) => r.usage_date >= addDays(to, -9));
      expect(short).toEqual(long);
    });

    it('does not depend on the organisation except for organization_id', () => {
      const other = generate('2026-11-01', '2026-11-03', 42, '00000000-0000-4000-8000-000000000001');
      const mine = generate('2026-11-01', '2026-11-03', 42);
      expect(other.map((r) => ({ ...r, organization_id: ORG }))).toEqual(mine);
      expect(other.every((r) => r.organization_id === '00000000-0000-4000-8000-000000000001')).toBe(true);
    });

    it('has a few hundred rows per day: 100k to 300k rows for the default span', () => {
      expect(rows.length).toBeGreaterThan(100_000);
      expect(rows.length).toBeLessThan(300_000);
      const perDay = sumBy(rows, (r) => r.usage_date);
      const counts = new Map<string, number>();
      for (const r of rows) counts.set(r.usage_date, (counts.get(r.usage_date) ?? 0) + 1);
      expect(perDay.size).toBe(396);
      for (const count of counts.values()) {
        expect(count).toBeGreaterThan(200);
        expect(count).toBeLessThan(600);
      }
    });
  });

  describe('row invariants', () => {
    it('gives every row the organisation, a date in range and the billing period of its date', () => {
      for (const row of rows) {
        if (row.organization_id !== ORG || row.usage_date < from || row.usage_date > to) throw new Error(JSON.stringify(row));
        if (row.billing_period !== row.usage_date.slice(0, 7)) throw new Error(JSON.stringify(row));
      }
    });

    it('writes money with at most 10 decimals, never negative except credits', () => {
      for (const row of rows) {
        for (const column of MONEY_COLUMNS) {
          const value = row[column];
          if (!/^-?\d+\.\d{1,10}$/.test(value)) throw new Error(`${column}=${value}`);
          if (micros(value) < 0n && row.cost_type !== COST_TYPES.credit) throw new Error(`${column}=${value} in ${row.cost_type}`);
        }
      }
    });

    it('keeps on-demand = amortized + the six savings, exactly, on usage rows', () => {
      const usage = rows.filter((r) => USAGE_COST_TYPES.includes(r.cost_type));
      expect(usage.length).toBeGreaterThan(rows.length * 0.9);
      for (const row of usage) {
        if (micros(row.on_demand_cost) !== micros(row.amortized_cost) + totalSavings(row)) throw new Error(JSON.stringify(row));
      }
    });

    it('never has on-demand below amortized except on fees and credits, and cash equals billed', () => {
      for (const row of rows) {
        if (row.cash_cost !== row.billed_cost) throw new Error(JSON.stringify(row));
        const feeOrCredit = [COST_TYPES.savingsPlanFee, COST_TYPES.reservationFee, COST_TYPES.credit].includes(row.cost_type as never);
        if (!feeOrCredit && micros(row.on_demand_cost) < micros(row.amortized_cost)) throw new Error(JSON.stringify(row));
      }
    });

    it('pays committed usage upfront: fee rows on the 1st with cash only, covered usage with less cash than amortized', () => {
      const fees = rows.filter((r) => r.cost_type === COST_TYPES.savingsPlanFee || r.cost_type === COST_TYPES.reservationFee);
      expect(fees.length).toBeGreaterThan(100);
      for (const fee of fees) {
        expect(fee.usage_date.endsWith('-01')).toBe(true);
        expect(micros(fee.amortized_cost)).toBe(0n);
        expect(micros(fee.on_demand_cost)).toBe(0n);
        expect(totalSavings(fee)).toBe(0n);
        expect(micros(fee.cash_cost)).toBeGreaterThan(0n);
      }
      const covered = rows.filter((r) => r.cost_type === COST_TYPES.savingsPlanCovered || r.cost_type === COST_TYPES.reservationCovered);
      expect(covered.every((r) => micros(r.cash_cost) < micros(r.amortized_cost))).toBe(true);
      // Over a full month, cash (fees + recurring) is close to amortized: the fee pays the upfront share.
      const month = rows.filter((r) => r.billing_period === '2026-06');
      const amortized = month.reduce((s, r) => s + Number(r.amortized_cost), 0);
      const cash = month.reduce((s, r) => s + Number(r.cash_cost), 0);
      expect(Math.abs(cash - amortized) / amortized).toBeLessThan(0.03);
      // ... but differs day by day: the 1st carries the month's fees.
      const firstDay = month.filter((r) => r.usage_date === '2026-06-01');
      const firstCash = firstDay.reduce((s, r) => s + Number(r.cash_cost), 0);
      const firstAmortized = firstDay.reduce((s, r) => s + Number(r.amortized_cost), 0);
      expect(firstCash).toBeGreaterThan(firstAmortized * 2);
    });

    it('keeps credits negative on amortized, billed and cash, with no on-demand or savings', () => {
      const credits = rows.filter((r) => r.cost_type === COST_TYPES.credit);
      expect(credits.length).toBeGreaterThan(0);
      for (const credit of credits) {
        expect(micros(credit.amortized_cost)).toBeLessThan(0n);
        expect(credit.billed_cost).toBe(credit.amortized_cost);
        expect(micros(credit.on_demand_cost)).toBe(0n);
        expect(totalSavings(credit)).toBe(0n);
      }
    });
  });

  describe('realism', () => {
    it('spans four clouds, dozens of services and named accounts with real region codes', () => {
      const clouds = new Set(rows.map((r) => r.cloud));
      expect(clouds).toEqual(new Set(['AWS', 'Azure', 'GCP', 'Oracle']));
      const services = new Set(rows.map((r) => r.service));
      expect(services.size).toBeGreaterThanOrEqual(50);
      for (const service of [
        'Amazon EC2',
        'Amazon S3',
        'Amazon RDS',
        'AWS Lambda',
        'Amazon CloudFront',
        'Amazon EKS',
        'Amazon DynamoDB',
        'Virtual Machines',
        'Blob Storage',
        'Azure SQL Database',
        'Azure Kubernetes Service',
        'Compute Engine',
        'BigQuery',
        'Cloud Storage',
        'Google Kubernetes Engine',
      ]) {
        expect(services).toContain(service);
      }
      const accounts = new Map<string, Set<string>>();
      for (const r of rows) accounts.set(r.account_id, (accounts.get(r.account_id) ?? new Set()).add(r.account_name));
      expect(accounts.size).toBeGreaterThanOrEqual(15);
      expect(accounts.size).toBeLessThanOrEqual(25);
      for (const names of accounts.values()) expect(names.size).toBe(1); // one name per account id
      expect([...accounts.values()].map((n) => [...n][0])).toEqual(expect.arrayContaining(['prod-payments', 'data-platform']));
      for (const row of rows) {
        const regions = CLOUDS[row.cloud as CloudName].regions;
        if (row.region !== '' && row.region !== 'global' && !regions.includes(row.region)) throw new Error(row.region);
      }
      expect(new Set(rows.map((r) => r.region)).size).toBeGreaterThanOrEqual(12);
    });

    it('has resource families, cost layers, integrations, instance and usage types', () => {
      expect([...new Set(rows.map((r) => r.resource_family))]).toEqual(
        expect.arrayContaining(['Compute', 'Storage', 'Database', 'Networking', 'Analytics', 'Containers', 'AI/ML']),
      );
      expect(new Set(rows.map((r) => r.cost_layer))).toEqual(new Set(['Infrastructure', 'Platform', 'Shared']));
      const integrationsByCloud = new Map<string, Set<string>>();
      for (const r of rows) integrationsByCloud.set(r.cloud, (integrationsByCloud.get(r.cloud) ?? new Set()).add(r.integration_id));
      expect(integrationsByCloud.get('AWS')).toEqual(new Set(['aws-cur-main', 'aws-cur-acquired']));
      expect(integrationsByCloud.get('Azure')).toEqual(new Set(['azure-ea-export']));
      expect(integrationsByCloud.get('GCP')).toEqual(new Set(['gcp-billing-export']));
      const instanceTypes = new Set(rows.map((r) => r.instance_type));
      expect([...instanceTypes]).toEqual(expect.arrayContaining(['m6i.xlarge', 'Standard_D4s_v5', 'n2-standard-8', 'db.r6g.xlarge']));
      expect(instanceTypes).toContain(''); // storage, networking: no instance type
      expect(new Set(rows.map((r) => r.usage_type)).size).toBeGreaterThan(100);
      expect(new Set(rows.map((r) => r.cost_type))).toEqual(new Set(Object.values(COST_TYPES)));
    });

    it('tags most rows with env/team/cost-center/application, leaves about 15% untagged and some partly tagged', () => {
      const untagged = rows.filter((r) => Object.keys(r.resource_tags).length === 0).length / rows.length;
      expect(untagged).toBeGreaterThan(0.08);
      expect(untagged).toBeLessThan(0.25);
      const tagged = rows.filter((r) => Object.keys(r.resource_tags).length > 0);
      expect(tagged.every((r) => r.resource_tags.env && r.resource_tags.team)).toBe(true);
      expect(tagged.some((r) => !r.resource_tags['cost-center'])).toBe(true);
      expect(tagged.some((r) => !r.resource_tags.application)).toBe(true);
      expect(tagged.some((r) => r.resource_tags.application && r.resource_tags['cost-center'])).toBe(true);
      expect(new Set(tagged.map((r) => r.resource_tags.env))).toEqual(
        new Set(['prod', 'staging', 'dev', 'sandbox', 'shared', 'production', 'development']),
      );
    });

    it('categorises by Business Unit and Environment, with sandbox rows lacking a Business Unit', () => {
      expect(rows.every((r) => r.cost_categories.Environment)).toBe(true);
      expect(new Set(rows.map((r) => r.cost_categories['Business Unit']))).toEqual(
        new Set(['Payments', 'Commerce', 'Data & Analytics', 'Platform', 'Corporate IT', 'Consumer', undefined]),
      );
    });

    it('has every savings source, spot only on spot usage and commitments only on committed usage', () => {
      for (const source of SAVINGS_SOURCES) {
        expect(rows.some((r) => micros(r[source]) > 0n)).toBe(true);
      }
      for (const row of rows) {
        if (micros(row.spot_savings) > 0n && !/Spot|Preemptible/.test(row.usage_type)) throw new Error(JSON.stringify(row));
        if (micros(row.commitment_savings) > 0n && row.cost_type === COST_TYPES.usage) throw new Error(JSON.stringify(row));
      }
      const onDemand = rows.reduce((s, r) => s + Number(r.on_demand_cost), 0);
      const savings = rows.reduce((s, r) => s + Number(totalSavings(r)) / 1e6, 0);
      expect(savings / onDemand).toBeGreaterThan(0.1);
      expect(savings / onDemand).toBeLessThan(0.35);
    });

    it('grows over the year, dips on weekends and is noisy', () => {
      const daily = sumBy(rows, (r) => r.usage_date);
      const firstMonth = [...daily].slice(0, 28).reduce((s, [, v]) => s + v, 0);
      const lastMonth = [...daily].slice(-28).reduce((s, [, v]) => s + v, 0);
      expect(lastMonth / firstMonth).toBeGreaterThan(1.1);
      expect(lastMonth / firstMonth).toBeLessThan(1.8);
      const usageByDate = sumBy(
        rows.filter((r) => USAGE_COST_TYPES.includes(r.cost_type)),
        (r) => r.usage_date,
      );
      let weekday = 0;
      let weekend = 0;
      for (const [date, value] of usageByDate) {
        const day = new Date(`${date}T00:00:00Z`).getUTCDay();
        if (day === 0 || day === 6) weekend += value / 2;
        else weekday += value / 5;
      }
      expect(weekend).toBeLessThan(weekday * 0.97);
      // One stream's consecutive days are not identical.
      const stream = rows.filter((r) => r.account_name === 'prod-payments' && r.service === 'Amazon S3' && r.cost_type === 'Usage');
      expect(new Set(stream.map((r) => r.amortized_cost)).size).toBeGreaterThan(stream.length / 2);
    });

    it('monthly total is in a plausible range for a mid-size enterprise', () => {
      const october = rows.filter((r) => r.billing_period === '2026-10').reduce((s, r) => s + Number(r.amortized_cost), 0);
      expect(october).toBeGreaterThan(150_000);
      expect(october).toBeLessThan(1_500_000);
    });
  });

  it('builds an estate with streams for every account of the catalog', () => {
    const estate = buildDemoEstate(42);
    expect(new Set(estate.streams.map((s) => s.account.name))).toEqual(new Set(ACCOUNTS.map((a) => a.name)));
    expect(buildDemoEstate(42)).toEqual(estate);
  });
});

describe('formatMicros', () => {
  it('writes integer micro-dollars as exact decimal text', () => {
    expect(formatMicros(0)).toBe('0.000000');
    expect(formatMicros(1)).toBe('0.000001');
    expect(formatMicros(1_234_567)).toBe('1.234567');
    expect(formatMicros(-1_500_000)).toBe('-1.500000');
    expect(formatMicros(98_765_432_100_000)).toBe('98765432.100000');
  });
});

describe('withoutDefaults', () => {
  it('drops zero money, empty strings and empty maps, and keeps everything else', () => {
    const [row] = generate('2026-11-01', '2026-11-01');
    const sample: DemoCostRow = { ...row, instance_type: '', spot_savings: '0.000000', resource_tags: {}, other_savings: '0.000001' };
    const compact = withoutDefaults(sample);
    expect(compact).not.toHaveProperty('instance_type');
    expect(compact).not.toHaveProperty('spot_savings');
    expect(compact).not.toHaveProperty('resource_tags');
    expect(compact.other_savings).toBe('0.000001');
    expect(compact.organization_id).toBe(ORG);
    expect(compact.usage_date).toBe('2026-11-01');
    expect(compact.cost_categories).toEqual(row.cost_categories);
  });
});
