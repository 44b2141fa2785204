import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { createPrivateKey, randomBytes } from 'node:crypto';
import type { BaseClient, Issuer } from 'openid-client';
import { once } from '../common/async/once';
import type { Principal } from '../common/http/principal';
import { APP_CONFIG, AppConfig, SsoConfig } from '../config/app-config';
import { readableText } from '../common/text/hidden-characters';
import { SIGN_IN_RECORDS, SignInRecords } from '../store/repositories/sign-in-records';
import { checkGroupMappings, GroupGrant, grantOfGroups } from './sso-group-mappings';

/** Between the redirect to the provider and its callback: what the callback must match (RFC 6749 §10.12, OIDC nonce, PKCE). */
interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/** A signed-in person, as every instance reads the session. */
export interface SignedInSession extends GroupGrant {
  subject: string;
  email: string;
  signedInAtMs: number;
  /** Absolute end: SSO_SESSION_MAX_HOURS after sign-in, however active. */
  endsAtMs: number;
  /** Last activity, to end it after SSO_SESSION_IDLE_MINUTES without a request. */
  activeAtMs: number;
}

/** A refused sign-in: the page the browser lands on says why; nothing is granted. */
export class SignInRefusal extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly reason: string,
    readonly who?: { subject: string; email: string },
    /** The provider's own refusal, as recorded (providerRefusal). */
    readonly providerError?: ProviderError,
  ) {
    super(reason);
  }
}

/**
 * A callback that answers no sign-in started in this browser (no pending sign-in, or another `state`): refused and
 * not recorded, since anyone can send one, as often and with whatever text they like.
 */
export class UnmatchedCallback extends SignInRefusal {}

/**
 * The error codes of an authorization response (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6): the only text of a
 * provider's refusal kept as given. Any other is recorded as UNKNOWN_PROVIDER_ERROR.
 */
export const PROVIDER_ERROR_CODES = [
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
] as const;
export const UNKNOWN_PROVIDER_ERROR = 'unknown_error';
/** Text from outside (a provider's error_description, a failed check's message) is recorded cut to this many characters. */
export const OUTSIDE_TEXT_MAX_CHARACTERS = 200;

/** A provider's refusal as recorded: a known code, and its description without hidden characters, cut short. */
export interface ProviderError {
  error: (typeof PROVIDER_ERROR_CODES)[number] | typeof UNKNOWN_PROVIDER_ERROR;
  errorDescription?: string;
}

export function providerRefusal(error: unknown, description: unknown): ProviderError {
  const code = PROVIDER_ERROR_CODES.find((known) => known === error) ?? UNKNOWN_PROVIDER_ERROR;
  const text = typeof description === 'string' ? readableText(description, OUTSIDE_TEXT_MAX_CHARACTERS) : '';
  return text ? { error: code, errorDescription: text } : { error: code };
}

/** How long a started sign-in may take at the provider. */
export const PENDING_SIGN_IN_SECONDS = 600;
/** A session's activity is written at most this often (each request reads it; few write). */
const ACTIVITY_WRITE_EVERY_MS = 60_000;
/** Where a sign-in may return to: the Settings pages only (no open redirect through `returnTo`). */
const RETURN_PATH = /^\/settings\/[a-z0-9-]{1,40}$/;
export const DEFAULT_RETURN_PATH = '/settings/api-keys';

/**
 * Sign-in to the Settings pages through the organisation's OpenID Connect provider (issue 36): the authorization code
 * flow with PKCE, `state` and `nonce`, by openid-client (a certified relying party library): it checks the ID token's
 * issuer, audience, expiry, nonce and signature against the provider's JWKS (read again at each sign-in, so a key
 * rotation is followed at once; `alg: none` and algorithms other than the client's are refused). Sessions and pending sign-ins
 * are server-side records (sign-in-records.ts), so every instance behind the load balancer knows them.
 */
/** openid-client, loaded at the first sign-in: most processes (the CLI's, an API without SSO_ISSUER_URL) never need it. */
const openidClient = once(() => import('openid-client'));

@Injectable()
export class SsoService {
  private readonly logger = new Logger('SsoService');
  private client?: Promise<BaseClient>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGN_IN_RECORDS) private readonly records: SignInRecords,
  ) {
    if (config.sso) checkGroupMappings(config.sso.groupMappings);
  }

  get settings(): SsoConfig | undefined {
    return this.config.sso;
  }

  /** Starts a sign-in: the provider's authorization URL, and the cookie value that names this browser's pending sign-in. */
  async begin(returnTo: unknown): Promise<{ pendingCookie: string; authorizationUrl: string }> {
    const sso = this.required();
    const [client, { generators }] = await Promise.all([this.oidcClient(), openidClient()]);
    const pending: PendingSignIn = {
      state: generators.state(),
      nonce: generators.nonce(),
      codeVerifier: generators.codeVerifier(),
      returnTo: safeReturnPath(returnTo),
    };
    const pendingCookie = randomToken();
    await this.records.put('pending', pendingCookie, pending, Date.now() + PENDING_SIGN_IN_SECONDS * 1000);
    const authorizationUrl = client.authorizationUrl({
      scope: sso.scopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: generators.codeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { pendingCookie, authorizationUrl };
  }

  /**
   * The provider's callback: the pending sign-in of this browser (used once), the code exchanged and the ID token
   * checked, the person's groups mapped to an organisation and its permissions; a new session.
   */
  async complete(
    pendingCookie: string | undefined,
    callback: IncomingMessage,
  ): Promise<{ sessionCookie: string; session: SignedInSession; returnTo: string }> {
    const sso = this.required();
    const pending = pendingCookie ? await this.records.take<PendingSignIn>('pending', pendingCookie) : undefined;
    if (!pending) {
      throw new UnmatchedCallback(
        HttpStatus.BAD_REQUEST,
        'This sign-in was not started here, was already used, or took longer than 10 minutes. Start again.',
      );
    }
    if (callbackState(callback) !== pending.state) {
      throw new UnmatchedCallback(
        HttpStatus.BAD_REQUEST,
        'The sign-in could not be verified: state mismatch (this answer is not for the sign-in this browser started). Start again.',
      );
    }
    const client = await this.oidcClient();
    // The provider's keys, read again at each sign-in (sign-ins are rare): a rotated key is known at once, where
    // openid-client alone fetches the key set again at most once a minute.
    await (client.issuer as Issuer & { reloadJwksUri(): Promise<void> }).reloadJwksUri().catch(() => undefined);
    const params = client.callbackParams(callback);
    if (params.error !== undefined) {
      const refusal = providerRefusal(params.error, params.error_description);
      throw new SignInRefusal(HttpStatus.FORBIDDEN, `The identity provider refused the sign-in: ${refusal.error}.`, undefined, refusal);
    }
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.callback(sso.redirectUrl, params, {
        state: pending.state,
        nonce: pending.nonce,
        code_verifier: pending.codeVerifier,
        response_type: 'code',
      });
      claims = tokens.claims();
    } catch (error) {
      throw new SignInRefusal(HttpStatus.BAD_REQUEST, `The sign-in could not be verified: ${await verificationFailure(error)}.`);
    }
    const who = { subject: String(claims.sub), email: typeof claims.email === 'string' ? claims.email : '' };
    const grant = grantOfGroups(sso.groupMappings, claims[sso.groupsClaim]);
    if (!grant) {
      throw new SignInRefusal(
        HttpStatus.FORBIDDEN,
        `You are signed in as ${who.email || who.subject}, but none of your groups (claim "${sso.groupsClaim}") is mapped to an organisation here. Ask an administrator to add your group to SSO_GROUP_MAPPINGS.`,
        who,
      );
    }
    const now = Date.now();
    const session: SignedInSession = { ...grant, ...who, signedInAtMs: now, activeAtMs: now, endsAtMs: now + sso.sessionMaxSeconds * 1000 };
    const sessionCookie = randomToken();
    await this.records.put('session', sessionCookie, session, this.expiryOf(session));
    return { sessionCookie, session, returnTo: pending.returnTo };
  }

  /** The live session a cookie names (its activity recorded), or undefined: unknown, ended, idle too long or past its end. */
  async session(sessionCookie: string): Promise<SignedInSession | undefined> {
    const sso = this.config.sso;
    if (!sso) return undefined;
    const session = await this.records.get<SignedInSession>('session', sessionCookie);
    const now = Date.now();
    if (!session || !isLive(session, now, sso.sessionIdleSeconds)) return undefined;
    if (now - session.activeAtMs >= ACTIVITY_WRITE_EVERY_MS) {
      const active = { ...session, activeAtMs: now };
      await this.records.touch('session', sessionCookie, active, this.expiryOf(active));
    }
    return session;
  }

  /** Ends the session everywhere (every instance reads the same record); the ended session, for the audit trail. */
  async signOut(sessionCookie: string): Promise<SignedInSession | undefined> {
    const session = await this.session(sessionCookie);
    await this.records.end('session', sessionCookie);
    return session;
  }

  private expiryOf(session: SignedInSession): number {
    return Math.min(session.endsAtMs, session.activeAtMs + this.required().sessionIdleSeconds * 1000);
  }

  private required(): SsoConfig {
    if (!this.config.sso)
      throw new SignInRefusal(HttpStatus.NOT_FOUND, 'Sign-in through an identity provider is not configured (SSO_ISSUER_URL).');
    return this.config.sso;
  }

  /** The provider's client, from its discovery document (read once; a failed read is tried again at the next sign-in). */
  private oidcClient(): Promise<BaseClient> {
    this.client ??= this.discover().catch((error: unknown) => {
      this.client = undefined;
      this.logger.error(`Identity provider discovery failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new SignInRefusal(HttpStatus.BAD_GATEWAY, 'The identity provider does not answer. Try again shortly.');
    });
    return this.client;
  }

  private async discover(): Promise<BaseClient> {
    const sso = this.required();
    const { custom, Issuer } = await openidClient();
    const issuer = await Issuer.discover(sso.issuerUrl);
    const privateKey = sso.privateKeyPem ? createPrivateKey(sso.privateKeyPem).export({ format: 'jwk' }) : undefined;
    const client = new issuer.Client(
      {
        client_id: sso.clientId,
        ...(privateKey
          ? { token_endpoint_auth_method: 'private_key_jwt' }
          : { client_secret: sso.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
        redirect_uris: [sso.redirectUrl],
        response_types: ['code'],
        id_token_signed_response_alg: 'RS256',
      },
      privateKey ? { keys: [{ ...privateKey, alg: privateKey.kty === 'EC' ? 'ES256' : 'RS256' }] } : undefined,
    );
    // Clocks of the provider and this host may differ by a few seconds.
    client[custom.clock_tolerance] = 5;
    return client;
  }
}

/** The principal of a signed-in person on the admin API: the session's organisation and permissions. */
export function sessionPrincipal(session: SignedInSession): Principal {
  return {
    keyId: `sso:${session.subject}`,
    organizationId: session.organizationId,
    scopes: session.scopes,
    person: { subject: session.subject, email: session.email },
  };
}

/** Before its absolute end, and used within the idle time. */
export function isLive(session: Pick<SignedInSession, 'endsAtMs' | 'activeAtMs'>, nowMs: number, idleSeconds: number): boolean {
  return nowMs < session.endsAtMs && nowMs < session.activeAtMs + idleSeconds * 1000;
}

function safeReturnPath(returnTo: unknown): string {
  return typeof returnTo === 'string' && RETURN_PATH.test(returnTo) ? returnTo : DEFAULT_RETURN_PATH;
}

/** 256 random bits, URL-safe: a cookie value nobody can guess. */
function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What failed, in words the page can show (openid-client's messages name the check: state, nonce, iss, aud, exp,
 * signature). They may quote the callback's parameters (`iss`): readable text, cut short, like all text from outside.
 */
async function verificationFailure(error: unknown): Promise<string> {
  const { errors } = await openidClient();
  if (error instanceof errors.RPError || error instanceof errors.OPError) return readableText(error.message, OUTSIDE_TEXT_MAX_CHARACTERS);
  return 'the identity provider could not be reached';
}

/** The callback's `state`, given once (a repeated or missing one matches no sign-in). */
function callbackState(callback: IncomingMessage): string | undefined {
  const states = new URL(callback.url ?? '', 'http://callback.invalid').searchParams.getAll('state');
  return states.length === 1 ? states[0] : undefined;
}
