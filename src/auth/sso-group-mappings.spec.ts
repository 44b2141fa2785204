import { loadConfig } from '../config/app-config';
import { checkGroupMappings, grantOfGroups } from './sso-group-mappings';

const ORG_A = '11111111-1111-4111-8111-111111111111';
const ORG_B = '22222222-2222-4222-8222-222222222222';
const MAPPINGS = [
  { group: 'finops-admins', organizationId: ORG_A, scopes: ['api-keys:admin'] },
  { group: 'finops-readers', organizationId: ORG_A, scopes: ['cost:read'] },
  { group: 'other-team', organizationId: ORG_B, scopes: ['api-keys:admin', 'rates:admin'] },
];

describe('grantOfGroups', () => {
  it("unites the permissions of every mapped group of the first matching mapping's organisation", () => {
    expect(grantOfGroups(MAPPINGS, ['finops-readers', 'other-team', 'finops-admins'])).toEqual({
      organizationId: ORG_A,
      scopes: ['api-keys:admin', 'cost:read'],
    });
    expect(grantOfGroups(MAPPINGS, 'other-team')).toEqual({ organizationId: ORG_B, scopes: ['api-keys:admin', 'rates:admin'] });
  });

  it('grants nothing without a mapped group, or without a usable claim', () => {
    for (const claim of [[], ['engineering'], undefined, null, 42, [7, { group: 'finops-admins' }]]) {
      expect(grantOfGroups(MAPPINGS, claim)).toBeUndefined();
    }
  });
});

describe('SSO settings', () => {
  const base = {
    SSO_ISSUER_URL: 'https://login.example.com',
    SSO_CLIENT_ID: 'cost-insights',
    SSO_CLIENT_SECRET: 'secret',
    SSO_REDIRECT_URL: 'https://costs.example.com/auth/callback',
    SSO_GROUP_MAPPINGS: JSON.stringify(MAPPINGS),
  };

  it('are one configuration with the public origin of the callback, sessions in seconds', () => {
    expect(loadConfig(base).sso).toMatchObject({
      publicOrigin: 'https://costs.example.com',
      groupMappings: MAPPINGS,
      sessionIdleSeconds: 30 * 60,
      sessionMaxSeconds: 12 * 3600,
    });
    expect(loadConfig({}).sso).toBeUndefined();
  });

  it('refuse to boot incomplete or malformed, naming what is wrong', () => {
    expect(() => loadConfig({ ...base, SSO_CLIENT_ID: '', SSO_CLIENT_SECRET: '' })).toThrow(
      'SSO_ISSUER_URL needs SSO_CLIENT_ID, SSO_CLIENT_SECRET or SSO_CLIENT_PRIVATE_KEY_FILE',
    );
    expect(() => loadConfig({ ...base, SSO_GROUP_MAPPINGS: '{' })).toThrow('SSO_GROUP_MAPPINGS must be a JSON array');
    expect(() => loadConfig({ ...base, SSO_GROUP_MAPPINGS: '[{"group":"g","organizationId":"acme","scopes":["cost:read"]}]' })).toThrow(
      'entry 0: organizationId must be a UUID',
    );
    expect(() => checkGroupMappings([{ group: 'g', organizationId: ORG_A, scopes: ['cost:read', 'everything'] }])).toThrow(
      'group "g" names unknown permissions: everything',
    );
  });
});
