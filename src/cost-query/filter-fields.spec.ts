import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { completeFilterFields } from '../store/shared-filters/shared-filter-configuration';
import { CompareFilterFieldsDto, FilterFieldsDto } from '../dto/filters.dto';
import { COLUMN_DIMENSIONS, OPTIONS_FIELDS, parseDimension } from './dimension-registry';
import { compileWhere } from './filter-compiler';
import { DATE_FIELDS, FILTER_FIELD_ENTRIES, FILTER_FIELDS, LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import { OPTION_SOURCES } from './filter-options.query';
import { SqlParameters } from './sql-parameters';

/**
 * The field table is the one definition of a filter field: every entry, and so a dimension added as one
 * entry, reaches the DTOs, the compiler, the shared-filter completion, groupBy and /filters by itself.
 */
describe('the field table drives every place a filter field appears', () => {
  const swaggerProperties = (dto: object) =>
    (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto) as string[]).map((key) => key.slice(1));
  const validatedProperties = (dto: new () => object) =>
    new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((rule) => rule.propertyName),
    );

  it("lists the spec's 16 FilterFields fields in its order, then the extensions", () => {
    expect(Object.keys(FILTER_FIELDS)).toEqual([
      'costLayers',
      'clouds',
      'services',
      'resourceFamilies',
      'regions',
      'instanceTypes',
      'usageTypes',
      'billingPeriods',
      'dateRange',
      'costTypes',
      'accountIds',
      'integrationIds',
      'resourceTag',
      'resourceTagValues',
      'costCategory',
      'costCategoryValues',
      'billingCurrencies',
      'allocatedMethods',
    ]);
    expect(DATE_FIELDS).toEqual(['billingPeriods', 'dateRange']);
  });

  it('declares, documents and validates every field in the request DTO, in order', () => {
    const names = FILTER_FIELD_ENTRIES.map(([name]) => name);
    expect(swaggerProperties(FilterFieldsDto.prototype)).toEqual(names);
    expect([...validatedProperties(FilterFieldsDto)]).toEqual(names);
    // /compare: every field but the date fields, which it refuses.
    expect(swaggerProperties(CompareFilterFieldsDto.prototype)).toEqual(names.filter((name) => !(DATE_FIELDS as string[]).includes(name)));
    expect(validatedProperties(CompareFilterFieldsDto)).toEqual(new Set(names));
  });

  it('completes a shared filter with every field: lists [] and the others null', () => {
    const complete = completeFilterFields({});
    expect(Object.keys(complete)).toEqual(FILTER_FIELD_ENTRIES.map(([name]) => name));
    for (const [name, field] of FILTER_FIELD_ENTRIES) {
      expect({ name, value: complete[name] }).toEqual({ name, value: field.kind === 'list' || field.kind === 'mapValues' ? [] : null });
    }
  });

  it('compiles every list field on its column, and is a dimension and a /filters list', () => {
    for (const field of LIST_FIELDS) {
      const params = new SqlParameters();
      const where = compileWhere(
        { organizationId: '0b6f6d3e-6a43-4c56-9b0e-1f1e8a2b1c11' },
        { inclusions: { [field.name]: ['x'] } },
        params,
        {
          today: '2026-11-23',
          defaultWindowDays: 30,
        },
      );
      expect(where).toMatch(new RegExp(`\\n  AND ${field.column} IN \\{p\\d:Array\\(String\\)\\}`));
      expect(parseDimension(field.dimension)).toEqual({ kind: 'column', name: field.dimension });
      expect(COLUMN_DIMENSIONS[field.dimension]).toEqual({ column: field.column, filterField: field.name, optionsField: field.options });
      expect(OPTION_SOURCES[field.options]).toEqual({ kind: 'column', column: field.column, target: field.name });
    }
  });

  it('compiles every Map key with its values, and lists its keys on /filters', () => {
    for (const [kind, map] of Object.entries(MAP_DIMENSIONS)) {
      const params = new SqlParameters();
      const where = compileWhere(
        { organizationId: '0b6f6d3e-6a43-4c56-9b0e-1f1e8a2b1c11' },
        { inclusions: { [map.keyField]: 'k', [map.valuesField]: ['v'] }, exclusions: { [map.keyField]: 'k' } },
        params,
        { today: '2026-11-23', defaultWindowDays: 30 },
      );
      expect(where).toContain(`${map.column}[{p2:String}] IN {p3:Array(String)}`);
      expect(where).toContain(`NOT (mapContains(${map.column}, {p4:String}))`);
      expect(OPTIONS_FIELDS).toContain(map.optionsField);
      expect(OPTION_SOURCES[map.optionsField]).toEqual({ kind: 'mapKeys', target: kind });
    }
    expect(OPTIONS_FIELDS).toEqual([...LIST_FIELDS.map((field) => field.options), 'resourceTags', 'costCategories']);
  });
});
