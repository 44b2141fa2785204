import { Inject, Injectable } from '@nestjs/common';
import type { Request as HttpRequest } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { once } from '../common/async/once';
import type { Principal } from '../common/http/principal';
import { McpTools } from './mcp-tools';

export const MCP_SERVER_INFO = { name: 'cost-insights', version: '1.0.0' } as const;

/** The MCP SDK's server side, loaded at the first MCP request: half a second of every start otherwise. */
const mcpSdk = once(async () => {
  const [{ Server }, { WebStandardStreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server, WebStandardStreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema };
});

const INSTRUCTIONS =
  "Cost Insights: cloud cost data of one organisation (the API key's). Start with get_filter_values to learn which clouds, services, accounts, " +
  'tags and cost categories exist (and how they are spelled), then get_cost_data for totals, top values and time series, or compare_costs for ' +
  'period-over-period changes. Answers are compact: lists are paged or cut, and every cut says how many values were left out and how to get them.';

/** What the MCP endpoint answers to one HTTP request: status, headers and the bytes of the body (possibly empty). */
export interface McpHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Streamable HTTP, stateless (no session: every POST carries one JSON-RPC message or batch and gets its
 * answer as JSON): a new MCP server and transport per request, as the SDK recommends without sessions, so
 * no request can see another's state. The caller's principal is fixed for the request by the API key.
 */
@Injectable()
export class McpEndpoint {
  constructor(
    private readonly tools: McpTools,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(
    message: unknown,
    headers: { accept?: string; contentType?: string; protocolVersion?: string },
    principal: Principal,
  ): Promise<McpHttpAnswer> {
    const cap = this.config.mcpMaxBatchCalls;
    if (Array.isArray(message) && message.length > cap) {
      return jsonRpcHttpError(
        400,
        INVALID_REQUEST,
        `Invalid Request: a batch holds at most ${cap} messages (MCP_MAX_BATCH_CALLS); this one holds ${message.length}. Send fewer per POST.`,
      );
    }
    const { forSdk, calls } = readToolCalls(message);
    if (!calls) return jsonRpcHttpError(400, INVALID_REQUEST, DUPLICATE_IDS);
    const { Server, WebStandardStreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await mcpSdk();
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools.list() }));
    // The tool runs on the call's own arguments as they were sent (see readToolCalls), not the SDK's copy.
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = calls.get(idKey(extra.requestId));
      if (!call) throw new JsonRpcError(INVALID_PARAMS, 'Invalid params: no such tool call in this request.');
      if (call.problem) throw new JsonRpcError(INVALID_PARAMS, `Invalid params: ${call.problem}`);
      return this.tools.call(call.name, call.arguments, principal);
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const request = new Request('http://localhost/v1/mcp', {
        method: 'POST',
        headers: {
          accept: headers.accept ?? '',
          'content-type': headers.contentType ?? 'application/json',
          ...(headers.protocolVersion ? { 'mcp-protocol-version': headers.protocolVersion } : {}),
        },
        body: JSON.stringify(forSdk),
      });
      const response = await transport.handleRequest(request, { parsedBody: forSdk });
      const body = Buffer.from(await response.arrayBuffer());
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (responseHeaders[name] = value));
      return { status: response.status, headers: responseHeaders, body };
    } finally {
      await server.close();
    }
  }
}

const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const DUPLICATE_IDS = 'Invalid Request: two tools/call messages of one batch have the same id; give each its own.';

/** An error the SDK answers as JSON-RPC with exactly this code and message (McpError would prefix its text). */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A tools/call as it was sent: its name and arguments, or what is wrong with them (invalid params). */
interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  problem?: string;
}

const idKey = (id: unknown): string => JSON.stringify(id) ?? 'undefined';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The tools/call requests of a message or batch, by id, with their arguments exactly as parsed from the
 * HTTP body, and the message as the SDK gets it: each tools/call's params replaced by a name and empty
 * arguments. The SDK's own schema copies the arguments (dropping an own `__proto__` key, which REST
 * refuses as an unknown field) and answers malformed params with an internal error carrying its
 * validator's JSON; here the tool gets the arguments as sent, through the REST validation, and malformed
 * params are a plain invalid-params error. `calls` is undefined when two tools/call share an id (their
 * answers could not be told apart).
 */
export function readToolCalls(message: unknown): { forSdk: unknown; calls?: Map<string, ToolCall>; count: number } {
  const calls = new Map<string, ToolCall>();
  let duplicate = false;
  const read = (item: unknown): unknown => {
    if (!isPlainObject(item) || item.method !== 'tools/call' || item.id === undefined) return item;
    const params = item.params;
    const name = isPlainObject(params) && typeof params.name === 'string' ? params.name : '';
    const args = isPlainObject(params) ? params.arguments : undefined;
    const call: ToolCall = { name, arguments: isPlainObject(args) ? args : {} };
    if (!isPlainObject(params)) call.problem = `params must be a JSON object, received ${describe(params)}.`;
    else if (typeof params.name !== 'string') call.problem = `params.name must be a string, received ${describe(params.name)}.`;
    else if (args !== undefined && !isPlainObject(args)) call.problem = `arguments must be a JSON object, received ${describe(args)}.`;
    const key = idKey(item.id);
    if (calls.has(key)) duplicate = true;
    calls.set(key, call);
    return { ...item, params: { name, arguments: {} } };
  };
  const forSdk = Array.isArray(message) ? message.map(read) : read(message);
  return { forSdk, calls: duplicate ? undefined : calls, count: calls.size };
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

function jsonRpcHttpError(status: number, code: number, message: string): McpHttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })),
  };
}

/**
 * The units of work of a POST to /v1/mcp (WorkUnits): each tools/call of the message or batch is one
 * request of the rate limits, the POST at least one. A batch over MCP_MAX_BATCH_CALLS costs one: it is
 * refused (400) without running anything.
 */
export function mcpWorkUnits(request: HttpRequest, config: AppConfig): number {
  const body: unknown = request.body;
  if (Array.isArray(body) && body.length > config.mcpMaxBatchCalls) return 1;
  return Math.max(1, readToolCalls(body).count);
}
