// What every Settings page does the same way: the header (who is signed in, Sign out), the sign-in section, the
// error box, and calls to /v1 with the sign-in's credentials (sign-in.js). A page's own app.js hands its part to
// SettingsPage.start: setup() once, show() after each sign-in (throwing leaves the page signed out, the error shown),
// reset() at sign-out. No page writes Markdown: code is a <code> element (SettingsPage.write).
'use strict';

// eslint-disable-next-line no-unused-vars
const SettingsPage = (() => {
  const API = '/v1';
  const $ = (id) => document.getElementById(id);

  /** A refusal of the API, in its own words: shown as is. */
  class ApiProblem extends Error {}

  /** The API's answer to `path`, or its refusal as an ApiProblem. */
  async function request(path, init = {}) {
    const response = await fetch(`${API}${path}`, SettingsSignIn.authorize(init));
    if (response.status === 401) throw new ApiProblem(SettingsSignIn.refusedMessage);
    if (!response.ok) {
      const payload = await response.json().catch(() => ({}));
      throw new ApiProblem(payload.error?.message ?? `The request failed (${response.status}).`);
    }
    return response;
  }

  /** A JSON call: {status, data}. */
  async function call(method, path, body) {
    const response = await request(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const payload = await response.json().catch(() => ({}));
    return { status: response.status, data: payload.data };
  }

  function showError(error) {
    const box = $('error');
    box.textContent = error instanceof ApiProblem ? error.message : `Something went wrong: ${error.message ?? error}`;
    box.hidden = false;
    box.focus?.();
  }

  function clearError() {
    $('error').hidden = true;
    $('error').textContent = '';
  }

  /** Fills `element` with text and code: each part a string, or {code: 'text'} for a <code> element. */
  function write(element, ...parts) {
    element.replaceChildren(
      ...parts.map((part) => {
        if (typeof part === 'string') return part;
        const code = document.createElement('code');
        code.textContent = part.code;
        return code;
      }),
    );
    return element;
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.append(td);
    return td;
  }

  /** An ISO time as "YYYY-MM-DD HH:MM UTC", or `none`. */
  function when(iso, none = 'never') {
    return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : none;
  }

  /** Every key of the organisation: the list is paged, so follow nextCursor to its end (the signed-in key may be on any page). */
  async function listAllKeys() {
    const keys = [];
    let cursor = null;
    do {
      const { data } = await call('GET', `/admin/api-keys${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      keys.push(...data.keys);
      cursor = data.nextCursor;
    } while (cursor);
    return keys;
  }

  /** The permissions of the signed-in person (their session's), or of the key, from its row of the key list. */
  async function ownScopes() {
    if (SettingsSignIn.personScopes) return SettingsSignIn.personScopes;
    const keys = await listAllKeys();
    return keys.find((key) => key.id === SettingsSignIn.keyId)?.scopes ?? [];
  }

  let page = { setup() {}, async show() {}, reset() {} };

  /** Signed in: the page's part, then the page and the header; the page's title takes the focus. */
  async function enter() {
    await page.show();
    $('sign-in').hidden = true;
    $('page').hidden = false;
    $('signed-in-as').textContent = `Signed in as ${SettingsSignIn.who}`;
    $('sign-out').hidden = false;
    $('page-title').focus();
  }

  async function signIn(event) {
    event.preventDefault();
    clearError();
    SettingsSignIn.useKey($('admin-key').value.trim());
    try {
      await enter();
      SettingsSignIn.rememberKey();
      $('admin-key').value = '';
    } catch (error) {
      SettingsSignIn.useKey(null);
      showError(error);
    }
  }

  async function signOut() {
    await SettingsSignIn.signOut();
    page.reset();
    $('signed-in-as').textContent = '';
    $('sign-out').hidden = true;
    $('page').hidden = true;
    showSignIn();
  }

  /** The sign-in the service offers: its identity provider, or the admin key form. */
  function showSignIn() {
    $('provider-sign-in').hidden = !SettingsSignIn.usesProvider;
    $('key-sign-in').hidden = SettingsSignIn.usesProvider;
    $('provider-sign-in-link').href = SettingsSignIn.providerSignInUrl();
    $('sign-in').hidden = false;
    (SettingsSignIn.usesProvider ? $('provider-sign-in-link') : $('admin-key')).focus();
  }

  /** Runs the page: `definition` is {setup, show, reset} (each optional). */
  function start(definition) {
    page = { ...page, ...definition };
    document.addEventListener('DOMContentLoaded', () => {
      $('sign-in-form').addEventListener('submit', signIn);
      $('sign-out').addEventListener('click', () => signOut().catch(showError));
      page.setup();
      SettingsSignIn.detect()
        .then(() => (SettingsSignIn.signedIn ? enter().catch((error) => signOut().then(() => showError(error))) : showSignIn()))
        .catch(showError);
    });
  }

  return { ApiProblem, $, request, call, showError, clearError, write, cell, when, listAllKeys, ownScopes, start };
})();
