import { firstHiddenCharacter } from '../text/hidden-characters';

/**
 * What a key may do: the permissions chosen when it is created (spec: Settings > API keys).
 * `api-keys:admin` manages the organisation's keys (/v1/admin/api-keys); `rates:admin` its exchange rates and
 * reporting currency (/v1/admin/exchange-rates, /v1/admin/currency); `sources:admin` its data sources (/v1/admin/sources);
 * `tag-keys:admin` the tag and cost-category keys answered at column speed (/v1/admin/tag-keys); `cost-categories:admin`
 * the cost categories it defines by rules (/v1/admin/cost-categories); `budgets:admin` its budgets (/v1/admin/budgets), those
 * made under the key's own data scope; `metrics:admin` its business metrics and their values (/v1/admin/business-metrics).
 */
export const SCOPES = [
  'cost:read',
  'shared-filters:read',
  'shared-filters:write',
  'api-keys:admin',
  'rates:admin',
  'sources:admin',
  'anomalies:write',
  'tag-keys:admin',
  'cost-categories:admin',
  'budgets:admin',
  'metrics:admin',
] as const;
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
  /** A person signed in to the Settings pages through the identity provider (the session's subject and email), not a key. */
  person?: { subject: string; email: string };
}

/** A key's name: who or what uses it (CLI and admin API alike). */
export const MAX_KEY_NAME_LENGTH = 200;

/** What is wrong with a key name as given (it is stored trimmed), or undefined. */
export function keyNameProblem(name: string): string | undefined {
  // A hidden character would hide or reorder what people read in the key table and the CLI before revoking a key.
  const refused = firstHiddenCharacter(name);
  if (refused) {
    const code = refused.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `must not contain control, bidirectional, zero-width or line-separator characters (U+${code})`;
  }
  if (name.trim() === '') return name === '' ? 'must not be empty' : 'must not be blank';
  return undefined;
}
