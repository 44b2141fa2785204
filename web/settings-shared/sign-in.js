// The Settings pages' sign-in, one definition for every page (one sign-in per tab serves them all). With an identity provider configured on the service
// (SSO_ISSUER_URL), the person signs in there and the browser holds an HttpOnly session cookie this code never sees;
// otherwise an admin API key is pasted in, kept in this tab's session storage and sent only in the Authorization header.
'use strict';

// eslint-disable-next-line no-unused-vars
const SettingsSignIn = (() => {
  const STORAGE_KEY = 'cost-insights-admin-key';
  let adminKey = sessionStorage.getItem(STORAGE_KEY);
  /** GET /auth/session: {sso, signedIn: {email, subject, organizationId, scopes, endsAt} | null}. */
  let session = { sso: false, signedIn: null };

  return {
    /** Asks the service how people sign in here, and who is signed in. */
    async detect() {
      const response = await fetch('/auth/session', { cache: 'no-store', credentials: 'same-origin' });
      if (response.ok) session = (await response.json()).data;
      return session;
    },
    get usesProvider() {
      return session.sso;
    },
    get signedIn() {
      return session.sso ? session.signedIn !== null : Boolean(adminKey);
    },
    /** The id of the admin key in use (the part after `cik_`; not secret: the key list and audit log show it), or null. */
    get keyId() {
      return session.sso ? null : (/^cik_([0-9A-Za-z]+)_/.exec(adminKey ?? '')?.[1] ?? null);
    },
    /** Who is signed in, for the header: the person's email, or the admin key's id. */
    get who() {
      return session.sso ? session.signedIn?.email || session.signedIn?.subject || '' : `key ${this.keyId ?? '(unrecognised)'}`;
    },
    /** The permissions of the person (from the session); for a key, the key's row of the key list says (null here). */
    get personScopes() {
      return session.sso ? (session.signedIn?.scopes ?? []) : null;
    },
    get adminKey() {
      return session.sso ? null : adminKey;
    },
    /** fetch() options for an API call: the session cookie (same origin only), or the key in the Authorization header. */
    authorize(init = {}) {
      if (session.sso) return { ...init, credentials: 'same-origin', cache: 'no-store' };
      return { ...init, headers: { ...(init.headers ?? {}), Authorization: `Bearer ${adminKey}` }, credentials: 'omit', cache: 'no-store' };
    },
    get refusedMessage() {
      return session.sso ? 'Your session has ended. Sign in again.' : 'This key is not valid (unknown or revoked). Sign in again.';
    },
    /** Where the provider sign-in starts, returning to this page. */
    providerSignInUrl() {
      return `/auth/sign-in?returnTo=${encodeURIComponent(location.pathname)}`;
    },
    useKey(key) {
      adminKey = key;
    },
    rememberKey() {
      sessionStorage.setItem(STORAGE_KEY, adminKey);
    },
    /** Ends the session on the service (every instance), or forgets the key in this tab. */
    async signOut() {
      if (session.sso) {
        await fetch('/auth/sign-out', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
        session = { ...session, signedIn: null };
        return;
      }
      sessionStorage.removeItem(STORAGE_KEY);
      adminKey = null;
    },
  };
})();
