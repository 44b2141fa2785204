import { HttpStatus } from '@nestjs/common';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { Principal, Scope, SCOPES } from '../common/http/principal';
import type { Filters } from '../cost-query/filters.types';

/** The permission that manages keys: never together with a data scope. */
export const ADMIN_SCOPE: Scope = 'api-keys:admin';

/**
 * What an admin key may create: only permissions it holds itself (a key holding only `api-keys:admin`
 * must not mint a `cost:read` key), and never an admin key with a data scope (every admin route refuses
 * scoped keys, which could otherwise create keys that see more than they do). Every scope of SCOPES,
 * whichever are added later, follows the same rule. `dataScope`: the canonical scope ('' for none).
 * Throws the 400 (an impossible combination) before the 403 (a grant beyond the creator's own).
 */
export function checkGrant(creator: Principal, scopes: readonly Scope[], dataScope: string): void {
  if (dataScope && scopes.includes(ADMIN_SCOPE)) {
    throw new InvalidRequestException([
      `dataScope: a key with ${ADMIN_SCOPE} cannot have a data scope (the admin routes refuse scoped keys, which could otherwise create keys that see more than they do); create an admin key without a data scope, and a scoped key without ${ADMIN_SCOPE}`,
    ]);
  }
  const beyond = SCOPES.filter((scope) => scopes.includes(scope) && !creator.scopes.includes(scope));
  if (beyond.length > 0) {
    const held = SCOPES.filter((scope) => creator.scopes.includes(scope));
    throw new ApiError(
      HttpStatus.FORBIDDEN,
      `This key cannot grant ${beyond.join(', ')}: a key may grant only permissions it holds itself (it holds ${held.join(', ')}).`,
    );
  }
}

/**
 * A data scope given in a request (not left out, not null) must restrict something: one whose lists
 * are all empty canonicalises to '' and would silently make a whole-organisation key.
 */
export function checkDataScopeRestricts(given: unknown, canonical: string): void {
  if (given !== undefined && given !== null && canonical === '') {
    throw new InvalidRequestException([
      'dataScope: restricts nothing (empty lists are ignored), which would make a whole-organisation key; give it at least one value, or leave dataScope out (or null) for a key that sees the whole organisation',
    ]);
  }
}

/**
 * A data scope within DATA_SCOPE_MAX_VALUES (its values, and tag or cost-category keys, all lists
 * together) and DATA_SCOPE_MAX_BYTES (its canonical JSON): a scope is kept in memory with every key that
 * uses it and listed with it, so its size is bounded like any other stored configuration.
 */
export function checkDataScopeSize(canonical: string, limits: { maxValues: number; maxBytes: number }): void {
  if (!canonical) return;
  const scope = JSON.parse(canonical) as Filters;
  let values = 0;
  for (const fields of [scope.inclusions, scope.exclusions]) {
    for (const value of Object.values(fields ?? {})) values += Array.isArray(value) ? value.length : typeof value === 'string' ? 1 : 0;
  }
  if (values > limits.maxValues) {
    throw new InvalidRequestException([
      `dataScope: ${values} values and keys, over the limit of ${limits.maxValues} (DATA_SCOPE_MAX_VALUES); a data scope names a slice of the organisation: use fewer, broader values`,
    ]);
  }
  const bytes = Buffer.byteLength(canonical, 'utf8');
  if (bytes > limits.maxBytes) {
    throw new InvalidRequestException([
      `dataScope: ${bytes} bytes as stored, over the limit of ${limits.maxBytes} bytes (DATA_SCOPE_MAX_BYTES); use fewer or shorter values`,
    ]);
  }
}
