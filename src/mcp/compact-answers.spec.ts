import { compactAnomalies, compactCostData, compactKeyValues, matches, pageNote, pageOf } from './compact-answers';
import { inlineSchema, operationInputSchema } from './tool-schemas';
import { mcpEndpointOf } from './stdio';

describe('MCP answers: paging and notes', () => {
  it('pages a list and counts what is left', () => {
    expect(pageOf([1, 2, 3, 4, 5], 1, 2)).toEqual({ elements: [2, 3], page: { offset: 1, limit: 2, returned: 2, total: 5, remaining: 2 } });
    expect(pageOf([1, 2], 5, 2).page).toEqual({ offset: 5, limit: 2, returned: 0, total: 2, remaining: 0 });
  });

  it('says how to get the rest, and nothing when everything was returned', () => {
    expect(pageNote(pageOf([1, 2, 3], 0, 3).page, 'items', 'narrow it.')).toBeUndefined();
    expect(pageNote(pageOf(Array.from({ length: 2340 }), 100, 100).page, 'items', 'narrow it.')).toBe(
      'Showing items 101–200 of 2,340. Call again with offset=200 for the next 100, or narrow it.',
    );
    expect(pageNote(pageOf([1, 2, 3], 2, 2).page, 'values', 'search.')).toBeUndefined();
    expect(pageNote(pageOf([1, 2, 3], 3, 2).page, 'values', 'search.')).toBe('Showing no values (offset is past the end) of 3. Search.');
  });

  it('cost data: summary, top values, the page the statement returned and a note when cut', () => {
    const items = Array.from({ length: 2 }, (_, i) => ({ usage_date: `2026-01-0${i + 3}`, amortized_cost: i, billed_cost: i }));
    const answer = compactCostData(
      { currency: 'EUR', items, summary: { total_amortized_cost: 10 }, itemCount: 7, topValues: [], distinctValues: 0 },
      2,
      2,
    );
    expect(answer.currency).toBe('EUR');
    expect(answer.items).toEqual(items);
    expect(answer.page).toEqual({ offset: 2, limit: 2, returned: 2, total: 7, remaining: 3 });
    expect(answer.note).toContain('offset=4');
    expect(answer).not.toHaveProperty('topValues');
  });

  it('cost data: top values and their count when grouped, nothing left to say on the last page', () => {
    const topValues = [{ dimension_value: 'a', amortized_cost: 3.5, billed_cost: 4 }];
    const answer = compactCostData(
      {
        currency: 'EUR',
        items: [{ usage_date: '2026-01-01', dimension_value: 'a', amortized_cost: 3.5 }],
        summary: {},
        itemCount: 1,
        topValues,
        distinctValues: 1,
      },
      0,
      100,
    );
    expect(answer).toEqual({
      currency: 'EUR',
      summary: {},
      topValues,
      distinctValues: 1,
      page: { offset: 0, limit: 100, returned: 1, total: 1, remaining: 0 },
      items: [{ usage_date: '2026-01-01', dimension_value: 'a', amortized_cost: 3.5 }],
    });
    expect(compactCostData({ currency: 'USD', items: [], summary: {}, itemCount: 3, topValues, distinctValues: 1 }, 5, 2).note).toBe(
      'Showing no items (offset is past the end) of 3. Narrow the question: a coarser groupBy.dateGrouping (weekly, monthly), fewer groupBy.dimensions, or filters. topValues already ranks the dimension values over the whole window.',
    );
  });

  it('key values: search (case-insensitive) then paging', () => {
    expect(matches('Amazon EC2', 'ec2')).toBe(true);
    expect(matches('Amazon EC2', undefined)).toBe(true);
    const answer = compactKeyValues('env', ['dev', 'Prod', 'prod-eu', 'staging'], 'PROD', 1, 5);
    expect(answer).toEqual({
      key: 'env',
      search: 'PROD',
      page: { offset: 1, limit: 5, returned: 1, total: 2, remaining: 0 },
      values: ['prod-eu'],
    });
  });

  it('anomalies: the first 3 root causes each, how many more, and everything when asked', () => {
    const cause = (value: string, contribution: number) => ({ dimension: 'account', value, contribution });
    const five = [cause('a', 50), cause('b', 40), cause('c', 30), cause('d', 20), cause('e', 10)];
    const result = {
      currency: 'EUR',
      anomalies: [
        { id: 'an_1', impact: 50, rootCauses: five },
        { id: 'an_2', impact: 9, rootCauses: five.slice(0, 3) },
      ],
    };
    expect(compactAnomalies(result, false)).toEqual({
      currency: 'EUR',
      anomalies: [
        { id: 'an_1', impact: 50, rootCauses: five.slice(0, 3), more_root_causes: 2 },
        { id: 'an_2', impact: 9, rootCauses: five.slice(0, 3) },
      ],
      note: 'Each anomaly lists its first 3 root causes; more_root_causes counts the rest. Set includeAllRootCauses=true to get them.',
    });
    expect(compactAnomalies(result, true)).toBe(result);
    // Nothing cut, nothing to say.
    expect(compactAnomalies({ anomalies: [result.anomalies[1]] }, false)).toEqual({ anomalies: [result.anomalies[1]] });
    expect(compactAnomalies({ anomalies: [] }, false)).toEqual({ anomalies: [] });
  });
});

describe('MCP tool schemas from the OpenAPI document', () => {
  const document = {
    paths: {
      '/v1/x': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } } } } },
      '/v1/y/{id}': {
        get: { parameters: [{ name: 'id', in: 'path', required: true, description: 'The id.', schema: { type: 'string', example: 'a' } }] },
      },
    },
    components: {
      schemas: {
        Body: {
          type: 'object',
          properties: {
            range: { description: 'Outer words win.', example: { start: 's' }, allOf: [{ $ref: '#/components/schemas/Range' }] },
          },
          required: ['range'],
        },
        Range: { type: 'object', description: 'Inner words.', properties: { start: { type: 'string', pattern: '^x$' } } },
      },
    },
  };

  it('inlines references, keeps the words beside them and refuses unknown fields', () => {
    expect(operationInputSchema(document, 'post', '/v1/x')).toEqual({
      type: 'object',
      properties: {
        range: {
          type: 'object',
          description: 'Outer words win.',
          examples: [{ start: 's' }],
          properties: { start: { type: 'string', pattern: '^x$' } },
          additionalProperties: false,
        },
      },
      required: ['range'],
      additionalProperties: false,
    });
  });

  it('makes path parameters an object', () => {
    expect(operationInputSchema(document, 'get', '/v1/y/{id}')).toEqual({
      type: 'object',
      properties: { id: { type: 'string', examples: ['a'], description: 'The id.' } },
      required: ['id'],
    });
  });

  it('reports unknown operations, references and cycles', () => {
    expect(() => operationInputSchema(document, 'get', '/v1/x')).toThrow('has no GET /v1/x');
    expect(() => inlineSchema({ $ref: '#/components/schemas/Nope' }, {})).toThrow('Unresolvable');
    expect(() =>
      inlineSchema({ $ref: '#/components/schemas/A' }, { A: { properties: { a: { $ref: '#/components/schemas/A' } } } }),
    ).toThrow('Recursive schema A → A');
  });
});

describe('stdio relay', () => {
  it('finds the MCP endpoint under a base address with or without /v1', () => {
    expect(mcpEndpointOf('http://localhost:3000').href).toBe('http://localhost:3000/v1/mcp');
    expect(mcpEndpointOf('http://localhost:3000/v1/').href).toBe('http://localhost:3000/v1/mcp');
    expect(mcpEndpointOf('https://backstage.example/api/proxy/cost-insights/v1').href).toBe(
      'https://backstage.example/api/proxy/cost-insights/v1/mcp',
    );
  });
});
