import { ANSWER_MEDIA_TYPES } from '../answers/answer-format';
import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AnswerDelivery } from '../answers/answer-delivery';
import { Authorized } from '../common/http/authorized.decorator';
import type { Principal } from '../common/http/principal';
import { AuthenticatedRequest, CurrentPrincipal } from '../common/http/request-context';
import { WorkUnits } from '../common/http/work-units';
import { McpEndpoint, mcpWorkUnits } from './mcp-endpoint';
import { MCP_TOOL_NAMES } from './mcp-tools';

const METHOD_NOT_ALLOWED = Buffer.from(
  JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send every JSON-RPC message with POST.' },
    id: null,
  }),
);

/**
 * POST /v1/mcp: the Model Context Protocol over Streamable HTTP, behind the same guards as every route (API
 * key, rate limit: one request of the key's budget per tools/call, at least one per POST). Any valid key reaches it; each tool checks the
 * scope its endpoint needs. Answers leave through AnswerDelivery like every other answer.
 */
@ApiTags('MCP')
@Controller('mcp')
export class McpController {
  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly delivery: AnswerDelivery,
  ) {}

  @Post()
  @HttpCode(200)
  @Authorized(
    undefined,
    'Not for the route: a tool called without the scope it needs answers a tool error (`isError`) with the 403 message.',
  )
  @ApiOperation({
    operationId: 'mcp',
    summary: 'Model Context Protocol endpoint for AI assistants (Streamable HTTP, stateless)',
    description: [
      'JSON-RPC 2.0 messages of the [Model Context Protocol](https://modelcontextprotocol.io), one message or batch per POST, answered as `application/json` ',
      '(send `Accept: application/json, text/event-stream` and `Content-Type: application/json`). No session: GET and DELETE answer 405. ',
      `Tools: ${MCP_TOOL_NAMES.map((name) => `\`${name}\``).join(', ')}; their input schemas are this document's request schemas, plus paging and search controls. `,
      'Every `tools/call` counts once against the key’s (and the organisation’s) rate limit: a batch of N calls costs N and is refused whole (429) when they do not fit; ',
      'a batch holds at most MCP_MAX_BATCH_CALLS messages (400 past it). Set up an MCP client: README, *AI assistants (MCP)*.',
    ].join(''),
  })
  @WorkUnits(mcpWorkUnits)
  @ApiProduces('application/json')
  @ApiBody({
    description: 'A JSON-RPC request, notification or batch (MCP).',
    schema: { type: 'object', example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  })
  @ApiOkResponse({ description: 'The JSON-RPC response (202 with no body for a notification).' })
  async post(@Req() request: AuthenticatedRequest, @Res() response: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    const answer = await this.endpoint.handle(
      request.body,
      {
        accept: request.headers.accept,
        contentType: request.headers['content-type'],
        protocolVersion: firstHeader(request.headers['mcp-protocol-version']),
      },
      principal,
    );
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!['content-length', 'content-type'].includes(name)) response.setHeader(name, value);
    }
    this.deliver(response, principal, answer.status, answer.body);
  }

  @Get()
  @ApiExcludeEndpoint()
  @Authorized()
  get(@Res() response: Response, @CurrentPrincipal() principal: Principal): void {
    response.setHeader('Allow', 'POST');
    this.deliver(response, principal, 405, METHOD_NOT_ALLOWED);
  }

  @Delete()
  @ApiExcludeEndpoint()
  @Authorized()
  delete(@Res() response: Response, @CurrentPrincipal() principal: Principal): void {
    this.get(response, principal);
  }

  /** The status and the JSON bytes, sent like every answer (chunked with backpressure, counted per organisation). */
  private deliver(response: Response, principal: Principal, status: number, body: Buffer): void {
    response.status(status);
    if (body.length === 0) {
      response.end();
      return;
    }
    const answer = this.delivery.send(response, principal.organizationId, body, ANSWER_MEDIA_TYPES.json);
    response.setHeader('Content-Length', body.length);
    answer.getStream().pipe(response);
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
