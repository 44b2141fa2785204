// A real OpenID Provider for the sign-in tests: oidc-provider (a certified OpenID Connect implementation) on a free
// loopback port, with its own development login form. Started by test/support/oidc-provider.ts as a child process
// (the package is an ES module); prints {"issuer": …} once listening.
//
//   node test/support/oidc-provider-server.mjs '{"redirectUris": […], "clientId": …, "clientSecret": …}'
//
// Users (any password): alice (groups finops-admins, engineering), bob (finops-readers), carol (no group).
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const USERS = {
  alice: { email: 'alice@example.com', groups: ['finops-admins', 'engineering'] },
  bob: { email: 'bob@example.com', groups: ['finops-readers'] },
  carol: { email: 'carol@example.com', groups: [] },
};

const server = (await import('node:http')).createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options.clientId,
      client_secret: options.clientSecret,
      redirect_uris: options.redirectUris,
      post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
  scopes: ['openid', 'email', 'groups'],
  // The ID token carries the requested claims (the service reads groups from it, as from Entra ID or Okta).
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
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
