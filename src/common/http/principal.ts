/** What a key may do: the permissions chosen when it is created (spec: Settings > API keys). */
export const SCOPES = ['cost:read', 'shared-filters:read', 'shared-filters:write'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The caller an API key identifies. Its organizationId is the only organisation scope a query may use. */
export interface Principal {
  keyId: string;
  organizationId: string;
  scopes: Scope[];
}
