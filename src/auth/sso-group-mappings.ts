import { isScope, Scope } from '../common/http/principal';
import type { SsoConfig } from '../config/app-config';

/** What the provider's groups grant: one organisation and permissions in it. */
export interface GroupGrant {
  organizationId: string;
  scopes: Scope[];
}

/** A mapping naming an unknown permission stops the boot, as any bad setting does (the message names it). */
export function checkGroupMappings(mappings: SsoConfig['groupMappings']): void {
  for (const mapping of mappings) {
    const unknown = mapping.scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0)
      throw new Error(`SSO_GROUP_MAPPINGS: group "${mapping.group}" names unknown permissions: ${unknown.join(', ')}`);
  }
}

/**
 * The grant of a person's groups (the ID token's groups claim: an array of strings, or one string): the organisation
 * of the first mapping that matches one of them, with the permissions of every matching mapping of that organisation.
 * None: undefined (a person in no mapped group is refused). A person is never signed in to two organisations at once.
 */
export function grantOfGroups(mappings: SsoConfig['groupMappings'], claim: unknown): GroupGrant | undefined {
  const groups = new Set(
    Array.isArray(claim) ? claim.filter((group) => typeof group === 'string') : typeof claim === 'string' ? [claim] : [],
  );
  const matching = mappings.filter((mapping) => groups.has(mapping.group));
  if (matching.length === 0) return undefined;
  const organizationId = matching[0].organizationId;
  const scopes = new Set(matching.filter((mapping) => mapping.organizationId === organizationId).flatMap((mapping) => mapping.scopes));
  return { organizationId, scopes: [...scopes].filter(isScope).sort() };
}
