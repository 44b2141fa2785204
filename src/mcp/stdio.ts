/**
 * `npm run -s mcp`: an MCP server on stdio for AI assistants that start their tools as local processes. It
 * relays every JSON-RPC message to the service's MCP endpoint (POST /v1/mcp) with the API key from the
 * environment, so the tools, their answers, the scopes, the data scope and the rate limit are the service's
 * own, and no database is reached from here. Standard output carries the protocol only; diagnostics go to
 * standard error, never with the key.
 *
 *   COST_INSIGHTS_URL      the API's base address, e.g. http://localhost:3000/v1 (default)
 *   COST_INSIGHTS_API_KEY  an API key (`cik_…`) with the scopes the tools need (cost:read, shared-filters:read)
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The MCP endpoint under an API base address given with or without `/v1`. */
export function mcpEndpointOf(base: string): URL {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = `${path.endsWith('/v1') ? path : `${path}/v1`}/mcp`;
  return url;
}

/** The JSON-RPC error a request gets when the relay could not obtain the service's answer. */
export function relayError(id: string | number, error: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32000, message: describeFailure(error) } };
}

function describeFailure(error: unknown): string {
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401) return 'Unauthorized: COST_INSIGHTS_API_KEY is missing, malformed, unknown or revoked.';
    // The service's envelope message, e.g. `Rate limit exceeded. Please retry after 12 seconds.`
    const envelope = /\{.*\}/s.exec(error.message)?.[0];
    try {
      const message = (JSON.parse(envelope ?? '') as { error?: { message?: string } }).error?.message;
      if (message) return `${message} (HTTP ${error.code})`;
    } catch {
      // not an envelope: fall through
    }
    return `The Cost Insights API answered HTTP ${error.code}.`;
  }
  return `The Cost Insights API could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

function log(line: string): void {
  process.stderr.write(`[cost-insights mcp] ${line}\n`);
}

export async function runStdioRelay(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = env.COST_INSIGHTS_API_KEY;
  if (!key) {
    log(
      'COST_INSIGHTS_API_KEY is not set: create a key with `npm run -s cli -- keys create …` and set it in the MCP client configuration.',
    );
    process.exit(2);
  }
  const endpoint = mcpEndpointOf(env.COST_INSIGHTS_URL ?? 'http://localhost:3000/v1');
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const local = new StdioServerTransport();
  const initializing = new Set<string | number>();

  local.onmessage = (message) => {
    const id = 'id' in message && 'method' in message ? message.id : undefined;
    if (id !== undefined && 'method' in message && message.method === 'initialize') initializing.add(id);
    upstream.send(message).catch((error: unknown) => {
      log(`relaying ${'method' in message ? message.method : 'a message'} failed: ${describeFailure(error)}`);
      if (id !== undefined) void local.send(relayError(id, error));
    });
  };
  upstream.onmessage = (message) => {
    // Later requests carry the negotiated protocol version, as the SDK's own client does.
    if ('id' in message && message.id !== undefined && initializing.delete(message.id) && 'result' in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') upstream.setProtocolVersion(version);
    }
    void local.send(message);
  };
  upstream.onerror = (error) => log(`upstream: ${describeFailure(error)}`);
  local.onerror = (error) => log(`stdio: ${error.message}`);
  local.onclose = () => {
    void upstream.close().finally(() => process.exit(0));
  };
  await upstream.start();
  await local.start();
  // The assistant closed our standard input: it is done with us.
  process.stdin.once('end', () => local.onclose?.());
  log(`relaying to ${endpoint.origin}${endpoint.pathname}`);
}

if (require.main === module) {
  runStdioRelay().catch((error: unknown) => {
    log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
