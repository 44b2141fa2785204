import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { RequireScopes } from './request-context';
import type { Scope } from './principal';

const INTEGER = { schema: { type: 'integer' } } as const;

/**
 * A route that needs an API key with `scope`, with the answers every such route can give documented
 * once: 401 (the gateway body), 403 (missing scope) and 429 (with its rate-limit headers). Without a
 * scope, any valid key passes the guards (the MCP endpoint: each of its tools checks its own scope).
 */
export function Authorized(scope?: Scope, forbiddenDescription = `The API key lacks the \`${scope}\` scope.`) {
  return applyDecorators(
    ...(scope ? [RequireScopes(scope)] : []),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({
      description: 'Missing, malformed, unknown or revoked API key. The body is `{"message":"Unauthorized"}`, not the envelope.',
      schema: { type: 'object', properties: { message: { type: 'string', example: 'Unauthorized' } } },
    }),
    ApiForbiddenResponse({ description: forbiddenDescription }),
    ApiTooManyRequestsResponse({
      description:
        'Rate limit exceeded: `Rate limit exceeded. Please retry after N seconds.` Also when the organisation already has ' +
        'MAX_CONCURRENT_STATEMENTS_PER_ORGANIZATION + MAX_QUEUED_STATEMENTS_PER_ORGANIZATION queries in progress on the instance ' +
        '(`Rate limit exceeded: too many queries of this organisation are in progress. Please retry after 1 seconds.`), or its ' +
        'answers still being sent hold MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION (`… still being delivered (read them first). Please retry after 5 seconds.`).',
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying', ...INTEGER },
        'X-RateLimit-Limit': { description: 'Maximum requests per minute', ...INTEGER },
        'X-RateLimit-Remaining': { description: 'Requests remaining in the current window (0)', ...INTEGER },
      },
    }),
  );
}
