import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../common/http/principal';
import { McpTools } from './mcp-tools';

export const MCP_SERVER_INFO = { name: 'cost-insights', version: '1.0.0' } as const;

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
  constructor(private readonly tools: McpTools) {}

  async handle(
    message: unknown,
    headers: { accept?: string; contentType?: string; protocolVersion?: string },
    principal: Principal,
  ): Promise<McpHttpAnswer> {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.tools.call(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, principal),
    );
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
        body: JSON.stringify(message),
      });
      const response = await transport.handleRequest(request, { parsedBody: message });
      const body = Buffer.from(await response.arrayBuffer());
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (responseHeaders[name] = value));
      return { status: response.status, headers: responseHeaders, body };
    } finally {
      await server.close();
    }
  }
}
