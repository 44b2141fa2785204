import { HttpStatus } from '@nestjs/common';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { Principal, SCOPES } from '../common/http/principal';
import { checkDataScopeRestricts, checkGrant } from './key-grants';

const creator = (scopes: Principal['scopes']): Principal => ({ keyId: 'k', organizationId: 'o', scopes });

describe('checkGrant', () => {
  it('allows any subset of the creator’s own scopes, for every scope of SCOPES', () => {
    for (const scope of SCOPES) expect(() => checkGrant(creator([scope]), [scope], '')).not.toThrow();
    expect(() => checkGrant(creator([...SCOPES]), [...SCOPES], '')).not.toThrow();
  });

  it('refuses every scope the creator lacks with a 403 naming them in SCOPES order', () => {
    for (const scope of SCOPES) {
      const others = SCOPES.filter((other) => other !== scope);
      try {
        checkGrant(creator([scope]), [...SCOPES].reverse(), '');
        throw new Error('not refused');
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).getStatus()).toBe(HttpStatus.FORBIDDEN);
        expect((error as ApiError).message).toContain(`cannot grant ${others.join(', ')}:`);
      }
    }
  });

  it('refuses api-keys:admin with a data scope as a 400, before any 403', () => {
    expect(() => checkGrant(creator(['cost:read']), ['api-keys:admin'], '{"inclusions":{"clouds":["AWS"]}}')).toThrow(
      InvalidRequestException,
    );
  });
});

describe('checkDataScopeRestricts', () => {
  it('refuses a given scope that restricts nothing, accepts one left out or null', () => {
    expect(() => checkDataScopeRestricts({ inclusions: { clouds: [] } }, '')).toThrow(InvalidRequestException);
    expect(() => checkDataScopeRestricts({}, '')).toThrow(InvalidRequestException);
    expect(() => checkDataScopeRestricts(undefined, '')).not.toThrow();
    expect(() => checkDataScopeRestricts(null, '')).not.toThrow();
    expect(() => checkDataScopeRestricts({ inclusions: { clouds: ['AWS'] } }, '{"inclusions":{"clouds":["AWS"]}}')).not.toThrow();
  });
});
