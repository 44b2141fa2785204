/**
 * MCP tool input schemas taken from the OpenAPI document that SwaggerModule builds from the request DTOs
 * (app.factory.ts), so a tool accepts exactly what its endpoint accepts and describes it in the same words.
 * OpenAPI component references are inlined (a tool's inputSchema must stand alone) and OpenAPI's `example`
 * becomes JSON Schema's `examples`.
 */
export type JsonSchema = { [keyword: string]: unknown };

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The parts of an OpenAPI 3 document read here. */
export interface OpenApiDocumentLike {
  paths: Record<string, object>;
  components?: { schemas?: Record<string, unknown> };
}

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** The JSON Schema of an operation's input: its JSON request body, or an object of its path parameters. */
export function operationInputSchema(document: OpenApiDocumentLike, method: string, path: string): JsonSchema {
  const operation = (document.paths[path] as Record<string, OpenApiOperation> | undefined)?.[method];
  if (!operation) throw new Error(`The OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) return inlineSchema(body, components);
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        inlineSchema({ ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }, components),
      ]),
    ),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

/**
 * A copy of `schema` with every `$ref` to a component replaced by the component itself (also a lone
 * `allOf: [{$ref}]`, how Swagger attaches a description to a reference), keys that sit beside the reference
 * winning. The request DTOs are not recursive; a cycle would be an error, reported here.
 */
export function inlineSchema(schema: JsonSchema, components: Record<string, JsonSchema>, trail: string[] = []): JsonSchema {
  let node: JsonSchema = { ...schema };
  const allOf = node.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isRef(allOf[0])) {
    delete node.allOf;
    node = { ...(allOf[0] as JsonSchema), ...node };
  }
  if (typeof node.$ref === 'string') {
    const name = COMPONENT_REF.exec(node.$ref)?.[1];
    if (!name || !components[name]) throw new Error(`Unresolvable reference ${node.$ref}`);
    if (trail.includes(name)) throw new Error(`Recursive schema ${[...trail, name].join(' → ')}`);
    const { $ref: _ref, ...beside } = node;
    return inlineSchema({ ...components[name], ...beside }, components, [...trail, name]);
  }
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'example') out.examples = [value];
    else if (keyword === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, inlineSchema(property as JsonSchema, components, trail)]),
      );
    } else if ((keyword === 'items' || keyword === 'additionalProperties') && isObject(value)) {
      out[keyword] = inlineSchema(value, components, trail);
    } else out[keyword] = value;
  }
  // Unknown fields are refused (400) by the validation pipe: say so to the model.
  if (out.type === 'object' && isObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function isRef(value: unknown): boolean {
  return isObject(value) && typeof value.$ref === 'string' && Object.keys(value).length === 1;
}

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
