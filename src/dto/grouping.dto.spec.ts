import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IsDateGrouping, IsGroupingDimension, IsGroupingDimensionList } from './grouping.dto';

class Probe {
  @IsDateGrouping()
  dateGrouping: unknown;

  @IsGroupingDimension()
  dimension: unknown;

  @IsGroupingDimensionList()
  dimensions: unknown;
}

function messages(values: Partial<Probe>): Record<string, string | undefined> {
  const probe = plainToInstance(Probe, { dateGrouping: 'daily', dimension: 'service', dimensions: ['service'], ...values });
  return Object.fromEntries(validateSync(probe).map((e) => [e.property, Object.values(e.constraints ?? {})[0]]));
}

describe('grouping validators', () => {
  it('accept registry dimensions, tag and category keys, and the three groupings', () => {
    expect(
      messages({ dimension: 'tag:env', dimensions: ['account', 'costCategory:Business Unit', 'tag:env'], dateGrouping: 'weekly' }),
    ).toEqual({});
  });

  it('name the accepted groupings and what was received', () => {
    expect(messages({ dateGrouping: 'hourly' }).dateGrouping).toBe('Expected one of daily, weekly, monthly, received "hourly"');
    expect(messages({ dateGrouping: undefined }).dateGrouping).toBe('Expected one of daily, weekly, monthly, received undefined');
  });

  it('list the accepted dimension forms', () => {
    const message = messages({ dimension: 'colour' }).dimension;
    expect(message).toContain(
      'one of costLayer, cloud, service, resourceFamily, region, instanceType, usageType, billingPeriod, costType, account, integration',
    );
    expect(message).toContain('or tag:<tag key>, or costCategory:<category key>');
    expect(message).toMatch(/received "colour"$/);
    expect(messages({ dimension: 'tag:' }).dimension).toContain('received "tag:"');
    expect(messages({ dimension: 7 }).dimension).toMatch(/received number$/);
  });

  it('name the offending element of a list by index, for the error formatter', () => {
    expect(messages({ dimensions: ['service', 'colour'] }).dimensions).toMatch(/^\[1\] Expected a dimension/);
    expect(messages({ dimensions: ['tag:env', 'region', 'tag:env'] }).dimensions).toBe(
      '[2] "tag:env" is listed twice; dimensions must be distinct',
    );
    expect(messages({ dimensions: [] }).dimensions).toBe('Expected 1 to 3 dimensions, received 0');
    expect(messages({ dimensions: 'service' }).dimensions).toBe('Expected array of strings, received string');
  });
});
