/**
 * What a key may do: the permissions chosen when it is created (spec: Settings > API keys).
 * `api-keys:admin` manages the organisation's keys (/v1/admin/api-keys); `rates:admin` its exchange rates and
 * reporting currency (/v1/admin/exchange-rates, /v1/admin/currency).
 */
export const SCOPES = ['cost:read', 'shared-filters:read', 'shared-filters:write', 'api-keys:admin', 'rates:admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The caller an API key identifies. Its organizationId is the only organisation scope a query may use. */
export interface Principal {
  keyId: string;
  organizationId: string;
  scopes: Scope[];
  /**
   * The key's data scope, as its canonical JSON (src/cost-query/data-scope.ts; organizationScopeOf turns
   * it into the query scope); absent for a key that sees its whole organisation.
   */
  dataScope?: string;
}

/** A key's name: who or what uses it (CLI and admin API alike). */
export const MAX_KEY_NAME_LENGTH = 200;
