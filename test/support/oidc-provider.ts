import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The provider's test client (registered at start). */
export const OIDC_CLIENT = { clientId: 'cost-insights-test', clientSecret: 'test-client-secret-not-a-real-one' };

/** How the provider misbehaves or differs (oidc-provider-server.mjs). */
export interface OidcProviderOptions {
  clockOffsetSeconds?: number;
  idTokenAlg?: 'RS256' | 'ES256';
  /** The client's public keys: it authenticates with private_key_jwt. */
  clientJwks?: { keys: object[] };
  /** Listen here (a restart in place: the same issuer, new signing keys). */
  port?: number;
}

export interface RunningOidcProvider {
  issuer: string;
  /** Kills the provider; resolves once it has exited (its port free). */
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider (oidc-provider, test/support/oidc-provider-server.mjs) in a child process, with the test
 * client registered for `redirectUris`. Users: alice (finops-admins), bob (finops-readers), carol (no group).
 */
export async function startOidcProvider(redirectUris: string[], options: OidcProviderOptions = {}): Promise<RunningOidcProvider> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'oidc-provider-server.mjs'), JSON.stringify({ ...OIDC_CLIENT, redirectUris, ...options })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the OpenID provider exited (${code}) before listening`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    issuer,
    stop: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Cookies per host (not per port), as a browser keeps them (names and values only: the test reads attributes itself). */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  take(url: string, response: Response): void {
    const host = new URL(url).hostname;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    this.cookies.set(host, jar);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair.indexOf('=');
      const [name, value] = [pair.slice(0, separator), pair.slice(separator + 1)];
      if (value === '' || /Max-Age=0/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string): string {
    return [...(this.cookies.get(new URL(url).hostname) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).hostname)?.get(name);
  }
}

/** One request without following redirects, cookies from and into the jar. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) },
  });
  jar.take(url, response);
  return response;
}

/**
 * Signs `user` in at the provider through its own login form, starting from the service's sign-in URL; returns the
 * provider's redirect back to the service (the callback URL with code and state, on `callbackOrigin`), not yet followed.
 */
export async function signInAtProvider(
  jar: CookieJar,
  signInUrl: string,
  user: string,
  callbackOrigin = new URL(signInUrl).origin,
  /** Given: the sign-in was begun already, and the browser goes to this authorization URL instead. */
  authorizationUrl?: string,
): Promise<string> {
  let response: Response;
  let url = authorizationUrl ?? new URL((await browse(jar, signInUrl)).headers.get('location')!, signInUrl).toString();
  for (let step = 0; step < 10; step++) {
    response = await browse(jar, url);
    if (response.status === 200) {
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at ${url}: ${html.slice(0, 200)}`);
      const target = new URL(action, url).toString();
      const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]): [string, string] => [
        name,
        value,
      ]);
      const body = new URLSearchParams([
        ...hidden,
        ...(html.includes('name="login"')
          ? ([
              ['login', user],
              ['password', 'any'],
            ] as Array<[string, string]>)
          : []),
      ]);
      response = await browse(jar, target, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
    if (new URL(url).origin === callbackOrigin) return url;
  }
  throw new Error('the provider did not redirect back');
}
