// A real OpenID Provider for the sign-in tests: oidc-provider (a certified OpenID Connect implementation) on a free
// loopback port, with its own development login form. Started by test/support/oidc-provider.ts as a child process
// (the package is an ES module); prints {"issuer": …} once listening.
//
//   node test/support/oidc-provider-server.mjs '{"redirectUris": […], "clientId": …, "clientSecret": …}'
//
// Options for the refusal tests, each a real provider misbehaving the way real ones can: `clockOffsetSeconds` (its
// clock off, so its ID tokens arrive expired), `idTokenAlg` (signs ID tokens with another algorithm, e.g. ES256),
// `clientJwks` (the client authenticates with private_key_jwt, these are its public keys), `port` (a restart in place,
// with new signing keys: a key rotation).
//
// Users (any password): alice (groups finops-admins, engineering), bob (finops-readers), carol (no group).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
if (options.clockOffsetSeconds) {
  const realNow = Date.now;
  Date.now = () => realNow() + options.clockOffsetSeconds * 1000;
}
/** Signing keys of its own, new at each start (as a rotation makes them: new key ids): RSA (RS256) and EC (ES256). */
const signingKeys = [
  { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: `rsa-${randomUUID()}`, use: 'sig' },
  { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: `ec-${randomUUID()}`, use: 'sig' },
];
const USERS = {
  alice: { email: 'alice@example.com', groups: ['finops-admins', 'engineering'] },
  bob: { email: 'bob@example.com', groups: ['finops-readers'] },
  carol: { email: 'carol@example.com', groups: [] },
};

const server = (await import('node:http')).createServer();
await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options.clientId,
      redirect_uris: options.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: options.idTokenAlg ?? 'RS256',
      ...(options.clientJwks
        ? { token_endpoint_auth_method: 'private_key_jwt', jwks: options.clientJwks }
        : { client_secret: options.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
    },
    // Another application at the same provider (its ID tokens are for another audience).
    {
      client_id: 'another-application',
      client_secret: 'another-application-secret',
      redirect_uris: options.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: signingKeys },
  enabledJWA: { clientAuthSigningAlgValues: ['RS256', 'ES256'], idTokenSigningAlgValues: ['RS256', 'ES256'] },
  features: { devInteractions: { enabled: true }, clientCredentials: { enabled: false } },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
  scopes: ['openid', 'email', 'groups'],
  // The ID token carries the requested claims (the service reads groups from it, as from Entra ID or Okta).
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  ttl: { IdToken: Number(options.idTokenSeconds ?? 3600) },
  cookies: { keys: ['test-provider-cookie-key'] },
  // The test client is first-party: no consent screen.
  loadExistingGrant: async (ctx) => {
    const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email groups');
    await grant.save();
    return grant;
  },
  findAccount: async (_ctx, id) => {
    const user = USERS[id];
    if (!user) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, email: user.email, email_verified: true, groups: user.groups }) };
  },
});
provider.on('server_error', (_ctx, error) => process.stderr.write(`oidc-provider: ${error.stack}\n`));
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
