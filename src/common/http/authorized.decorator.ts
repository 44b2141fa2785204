import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Scope } from '../../auth/api-key-format';
import { RequireScopes } from './request-context';

const INTEGER = { schema: { type: 'integer' } } as const;

/**
 * A route that needs an API key with `scope`, with the answers every such route can give documented
 * once: 401 (the gateway body), 403 (missing scope) and 429 (with its rate-limit headers).
 */
export function Authorized(scope: Scope, forbiddenDescription = `The API key lacks the \`${scope}\` scope.`) {
  return applyDecorators(
    RequireScopes(scope),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({
      description: 'Missing, malformed, unknown or revoked API key. The body is `{"message":"Unauthorized"}`, not the envelope.',
      schema: { type: 'object', properties: { message: { type: 'string', example: 'Unauthorized' } } },
    }),
    ApiForbiddenResponse({ description: forbiddenDescription }),
    ApiTooManyRequestsResponse({
      description: 'Rate limit exceeded: `Rate limit exceeded. Please retry after N seconds.`',
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying', ...INTEGER },
        'X-RateLimit-Limit': { description: 'Maximum requests per minute', ...INTEGER },
        'X-RateLimit-Remaining': { description: 'Requests remaining in the current window (0)', ...INTEGER },
      },
    }),
  );
}
