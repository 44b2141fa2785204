// Settings > API keys: a page of the service itself (no CDN, no framework, no inline code: the
// Content-Security-Policy allows scripts and styles from this origin only). Signing in (the identity provider's
// session, or an admin key in this tab only) is sign-in.js's, shared with the audit log page.
'use strict';

const API = '/v1';
/** Data-scope choices: the /filters list a field's values come from, and the scope field they fill. */
const SCOPE_FIELDS = [
  { id: 'accountIds', label: 'Accounts', options: 'accounts' },
  { id: 'clouds', label: 'Clouds', options: 'clouds' },
  { id: 'services', label: 'Services', options: 'services' },
  { id: 'regions', label: 'Regions', options: 'regions' },
  { id: 'integrationIds', label: 'Integrations', options: 'integrations' },
  {
    id: 'resourceTag',
    label: 'A resource tag',
    keys: 'resourceTags',
    valuesField: 'resourceTagValues',
    values: 'tag-values',
    keyName: 'tagKey',
  },
  {
    id: 'costCategory',
    label: 'A cost category',
    keys: 'costCategories',
    valuesField: 'costCategoryValues',
    values: 'cost-category-values',
    keyName: 'categoryKey',
  },
];

const $ = (id) => document.getElementById(id);
let filterOptions;

class ApiProblem extends Error {}

async function call(method, path, body) {
  const response = await fetch(
    `${API}${path}`,
    SettingsSignIn.authorize({
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const payload = await response.json().catch(() => ({}));
  if (response.status === 401) throw new ApiProblem(SettingsSignIn.refusedMessage);
  if (!response.ok) throw new ApiProblem(payload.error?.message ?? `The request failed (${response.status}).`);
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

function when(iso) {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never';
}

function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
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

async function loadKeys() {
  const keys = await listAllKeys();
  const rows = $('key-rows');
  rows.replaceChildren();
  for (const key of keys) {
    const row = document.createElement('tr');
    row.dataset.keyId = key.id;
    if (key.revokedAt) row.className = 'revoked';
    cell(row, key.name);
    const id = cell(row, '');
    const code = document.createElement('code');
    code.textContent = key.id;
    id.append(code);
    cell(row, key.scopes.join(', '));
    cell(row, key.dataScopeDescription);
    cell(row, when(key.createdAt));
    cell(row, when(key.lastUsedAt));
    cell(row, key.revokedAt ? `Revoked ${when(key.revokedAt)}` : 'Active');
    const actions = cell(row, '');
    if (!key.revokedAt) {
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.textContent = 'Revoke';
      revoke.setAttribute('aria-label', `Revoke key ${key.name}`);
      revoke.addEventListener('click', () => revokeKey(key).catch(showError));
      actions.append(revoke);
    }
    rows.append(row);
  }
  return keys;
}

/** The permissions of the signed-in person (their session's), or of the key, from its row of the list (its id is the part after `cik_`). */
function ownScopes(keys) {
  if (SettingsSignIn.personScopes) return SettingsSignIn.personScopes;
  const id = /^cik_([0-9A-Za-z]+)_/.exec(SettingsSignIn.adminKey ?? '')?.[1];
  return keys.find((key) => key.id === id)?.scopes ?? [];
}

async function revokeKey(key) {
  if (!window.confirm(`Revoke the key "${key.name}"? Everything using it stops working within seconds. This cannot be undone.`)) return;
  clearError();
  await call('DELETE', `/admin/api-keys/${encodeURIComponent(key.id)}`);
  await loadKeys();
}

/** The permissions come from the service's own OpenAPI document: one definition, never a copy here. */
async function loadPermissions() {
  const document_ = await (await fetch('/docs-json', { cache: 'no-store' })).json();
  const scopes = document_.components.schemas.CreateApiKeyDto.properties.scopes.items.enum;
  const fieldset = $('permissions');
  fieldset.querySelectorAll('label').forEach((label) => label.remove());
  for (const scope of scopes) {
    const label = document.createElement('label');
    label.className = 'check';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'scope';
    box.value = scope;
    box.checked = scope === 'cost:read';
    label.append(box, scope);
    fieldset.append(label);
  }
}

function fillSelect(select, options) {
  select.replaceChildren(
    ...options.map(({ value, label }) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      return option;
    }),
  );
}

/** The organisation's live options (last 12 months), read once; needs the admin key to have cost:read too. */
async function liveOptions() {
  if (!filterOptions) {
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    filterOptions = (await call('POST', '/cost-insights/filters', { filters: { inclusions: { dateRange: { start, end } } } })).data;
  }
  return filterOptions;
}

async function scopeFieldChanged() {
  clearError();
  const field = SCOPE_FIELDS.find((candidate) => candidate.id === $('scope-field').value);
  $('scope-key-row').hidden = !field?.keys;
  $('scope-values-row').hidden = !field;
  fillSelect($('scope-values'), []);
  if (!field) return;
  try {
    const options = await liveOptions();
    if ($('scope-field').value !== field.id) return; // another choice meanwhile: its own call fills the lists
    if (field.keys) {
      fillSelect(
        $('scope-key'),
        options[field.keys].map((key) => ({ value: key, label: key })),
      );
      await scopeKeyChanged();
    } else {
      const names = options.accountIdToName ?? {};
      fillSelect(
        $('scope-values'),
        options[field.options].map((value) => ({ value, label: names[value] ? `${value} (${names[value]})` : value })),
      );
    }
  } catch (error) {
    showError(
      error instanceof ApiProblem
        ? new ApiProblem(`Live values could not be read: ${error.message} (the admin key needs cost:read for them).`)
        : error,
    );
  }
}

async function scopeKeyChanged() {
  const field = SCOPE_FIELDS.find((candidate) => candidate.id === $('scope-field').value);
  const key = $('scope-key').value;
  if (!field?.keys || !key) return fillSelect($('scope-values'), []);
  const { data } = await call('POST', `/cost-insights/${field.values}`, { [field.keyName]: key });
  // Another key (or field) chosen meanwhile: its own answer fills the list, not this late one.
  if ($('scope-key').value !== key || $('scope-field').value !== field.id) return;
  fillSelect(
    $('scope-values'),
    data.values.map((value) => ({ value, label: value })),
  );
}

function chosenDataScope() {
  const field = SCOPE_FIELDS.find((candidate) => candidate.id === $('scope-field').value);
  if (!field) return undefined;
  const values = [...$('scope-values').selectedOptions].map((option) => option.value);
  if (field.keys) {
    const key = $('scope-key').value;
    if (!key) throw new ApiProblem('Choose the key the data scope limits to.');
    return { inclusions: { [field.id]: key, ...(values.length ? { [field.valuesField]: values } : {}) } };
  }
  if (!values.length) throw new ApiProblem(`Choose at least one of the ${field.label.toLowerCase()} the key may see.`);
  return { inclusions: { [field.id]: values } };
}

async function createKey(event) {
  event.preventDefault();
  clearError();
  const scopes = [...document.querySelectorAll('input[name="scope"]:checked')].map((box) => box.value);
  if (!scopes.length) throw new ApiProblem('Choose at least one permission.');
  const dataScope = chosenDataScope();
  const { data } = await call('POST', '/admin/api-keys', { name: $('key-name').value, scopes, ...(dataScope ? { dataScope } : {}) });
  $('new-key-value').value = data.key;
  $('copy-status').textContent = '';
  $('new-key').hidden = false;
  $('create-form').reset();
  $('scope-field').value = '';
  await scopeFieldChanged();
  await loadPermissions();
  await loadKeys();
  $('new-key-value').focus();
  $('new-key-value').select();
}

async function copyKey() {
  try {
    await navigator.clipboard.writeText($('new-key-value').value);
    $('copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    $('new-key-value').select();
    $('copy-status').textContent = 'Press Ctrl+C (⌘C) to copy the selected key.';
  }
}

async function signIn(event) {
  event.preventDefault();
  clearError();
  SettingsSignIn.useKey($('admin-key').value.trim());
  try {
    await showKeys();
    SettingsSignIn.rememberKey();
    $('admin-key').value = '';
  } catch (error) {
    SettingsSignIn.useKey(null);
    showError(error);
  }
}

/** The organisation's reporting currency and loaded rates: read and set with rates:admin; without it, said so. */
async function loadCurrency(scopes) {
  if (!scopes.includes('rates:admin')) {
    $('currency-summary').textContent = "Answers are in the organisation's reporting currency (USD unless an admin sets another).";
    $('currency-locked').hidden = false;
    $('currency-form').hidden = true;
    $('rates-table').hidden = true;
    $('currency').hidden = false;
    return;
  }
  const settings = (await call('GET', '/admin/currency')).data;
  const policy = settings.conversionPolicy === 'usage_date' ? 'its usage day' : "its billing period's last day";
  const billed = settings.billingCurrencies.length ? settings.billingCurrencies.join(', ') : 'no costs yet';
  $('currency-summary').textContent =
    `Answers are in ${settings.reportingCurrency}; each cost is converted at the rate of ${policy}. Costs are billed in: ${billed}.`;
  $('reporting-currency').value = settings.reportingCurrency;
  $('conversion-policy').value = settings.conversionPolicy;
  $('currency-locked').hidden = true;
  $('currency-form').hidden = false;
  const rows = $('rate-rows');
  rows.replaceChildren();
  for (const pair of settings.exchangeRates) {
    const row = document.createElement('tr');
    cell(row, `${pair.base}/${pair.quote}`);
    cell(row, String(pair.rates));
    cell(row, pair.firstDate);
    cell(row, pair.lastDate);
    cell(row, pair.sources.join(', '));
    rows.append(row);
  }
  $('rates-table').hidden = settings.exchangeRates.length === 0;
  $('currency').hidden = false;
}

/** The organisation's data sources and their state, with sources:admin; without it, said so. */
async function loadSources(scopes) {
  $('sources').hidden = false;
  if (!scopes.includes('sources:admin')) {
    $('sources-summary').textContent = 'Seeing the data sources needs a key with the sources:admin permission.';
    $('sources-table').hidden = true;
    return;
  }
  const sources = (await call('GET', '/admin/sources')).data;
  $('sources-summary').textContent = sources.length
    ? `${sources.length} data source${sources.length === 1 ? '' : 's'}.`
    : 'No data sources: cost data arrives by `ingest focus` imports only.';
  const rows = $('source-rows');
  rows.replaceChildren();
  for (const source of sources) {
    const { status } = source;
    const row = document.createElement('tr');
    cell(row, source.integrationId);
    cell(row, source.kind);
    cell(row, source.url);
    cell(row, status.lastCheckAt ? `${status.lastCheckAt.slice(0, 16).replace('T', ' ')} UTC (${status.lastOutcome})` : 'not yet');
    cell(row, status.lastImportAt ? `${status.lastImportAt.slice(0, 16).replace('T', ' ')} UTC: ${status.lastImportBillingPeriods.join(', ')}` : 'none');
    cell(row, status.lastImportLagSeconds === null ? '' : `${Math.round(status.lastImportLagSeconds / 60)} min`);
    cell(row, status.lastProblem ? `${status.lastProblem.outcome}: ${status.lastProblem.message}` : 'none');
    rows.append(row);
  }
  $('sources-table').hidden = sources.length === 0;
}

async function saveCurrency(event) {
  event.preventDefault();
  clearError();
  await call('PUT', '/admin/currency', {
    reportingCurrency: $('reporting-currency').value.trim(),
    conversionPolicy: $('conversion-policy').value,
  });
  await loadCurrency(['rates:admin']);
}

/** Activated tag keys: while one back-fills, GET every POLL_MS, for at most POLL_LIMIT_MS. */
const TAG_KEYS = {
  POLL_MS: 2_000,
  POLL_LIMIT_MS: 120_000,
  MAX_PER_LIST: 50,
  KINDS: { tag: 'tag', costCategory: 'cost category' },
  STATES: { active: 'Active', backfilling: 'Back-filling' },
};
/** The running poll ({timer, deadline}), or null; `resumeTagKeysPoll`: stopped because the tab was hidden. */
let tagKeysPoll = null;
let resumeTagKeysPoll = false;
/** The keys last saved, until they are all active: the PUT's answer can come before a key it adds is recorded as back-filling. */
let tagKeysSaved = null;

const tagKeyId = (kind, key) => `${kind}\u0000${key}`;

function formatShare(share) {
  return `${Number((share * 100).toFixed(2))}%`;
}

/** The status line: how many keys are activated and whether any is still back-filling. */
function tagKeysSummary(activated, note = '') {
  const backfilling = activated.filter((a) => a.state === 'backfilling').length;
  const count = `${activated.length} activated key${activated.length === 1 ? '' : 's'}`;
  const text = !activated.length
    ? 'No key is activated: every question reads the full tag maps.'
    : backfilling
      ? `${count}, ${backfilling} back-filling: the existing rows are rewritten in the background, answers stay the same meanwhile.`
      : `${count}, all active.`;
  $('tag-keys-summary').textContent = note ? `${text} ${note}` : text;
}

/** `data`, with each key saved but not yet listed as activated shown back-filling (it is, from the PUT's 202 on). */
function withPending(data) {
  if (!tagKeysSaved) return data;
  const listed = new Set(data.activated.map((a) => tagKeyId(a.kind, a.key)));
  const pending = tagKeysSaved
    .filter(({ kind, key }) => !listed.has(tagKeyId(kind, key)))
    .map(({ kind, key }) => ({ kind, key, state: 'backfilling', updatedAt: '' }));
  return { ...data, activated: [...data.activated, ...pending] };
}

function stateCell(cellElement, activation) {
  cellElement.textContent = activation ? (TAG_KEYS.STATES[activation.state] ?? activation.state) : '—';
  cellElement.className = activation ? `state-${activation.state}` : '';
}

/** The whole table: the keys present, then any activated key not present; checked = activated. */
function renderTagKeys(data) {
  const activations = new Map(data.activated.map((a) => [tagKeyId(a.kind, a.key), a]));
  const rows = $('tag-key-rows');
  rows.replaceChildren();
  const present = new Set(data.present.map((p) => tagKeyId(p.kind, p.key)));
  const absent = data.activated.filter((a) => !present.has(tagKeyId(a.kind, a.key)));
  for (const entry of [...data.present, ...absent]) {
    const activation = activations.get(tagKeyId(entry.kind, entry.key));
    const row = document.createElement('tr');
    row.dataset.kind = entry.kind;
    row.dataset.key = entry.key;
    const choice = cell(row, '', 'choice');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = Boolean(activation);
    box.setAttribute('aria-label', `Answer ${TAG_KEYS.KINDS[entry.kind] ?? entry.kind} ${entry.key} at column speed`);
    choice.append(box);
    const kind = TAG_KEYS.KINDS[entry.kind] ?? entry.kind;
    cell(row, kind[0].toUpperCase() + kind.slice(1));
    const name = cell(row, '');
    const code = document.createElement('code');
    code.textContent = entry.key;
    name.append(code);
    const isPresent = 'costShare' in entry;
    cell(row, isPresent ? formatShare(entry.costShare) : '—', 'number');
    cell(row, isPresent ? entry.distinctValues.toLocaleString('en') : '—', 'number');
    stateCell(cell(row, ''), activation);
    const suggested = cell(row, '');
    if (entry.suggested) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'suggested';
      suggested.append(badge);
    }
    rows.append(row);
  }
  tagKeysSummary(data.activated);
}

/** A poll's answer: only the states and the status line, so boxes changed meanwhile stay as they are. */
function showTagKeyStates(data, note) {
  const activations = new Map(data.activated.map((a) => [tagKeyId(a.kind, a.key), a]));
  for (const row of $('tag-key-rows').rows) {
    stateCell(row.cells[5], activations.get(tagKeyId(row.dataset.kind, row.dataset.key)));
  }
  tagKeysSummary(data.activated, note);
}

function stopTagKeysPoll() {
  if (tagKeysPoll) clearTimeout(tagKeysPoll.timer);
  tagKeysPoll = null;
}

/** GET every 2 s until nothing back-fills, the section is hidden, or the time is up. */
function pollTagKeys() {
  stopTagKeysPoll();
  const poll = { timer: 0, deadline: Date.now() + TAG_KEYS.POLL_LIMIT_MS };
  tagKeysPoll = poll;
  const tick = async () => {
    if (tagKeysPoll !== poll) return;
    if ($('tag-keys').hidden || $('tag-keys-form').hidden) return stopTagKeysPoll();
    try {
      const data = withPending((await call('GET', '/admin/tag-keys')).data);
      if (tagKeysPoll !== poll || $('tag-keys').hidden) return; // stopped meanwhile (signed out, saved again)
      const backfilling = data.activated.some((a) => a.state === 'backfilling');
      const late = backfilling && Date.now() >= poll.deadline;
      showTagKeyStates(data, late ? 'Still back-filling after 2 minutes: reload the page to see its state later.' : '');
      if (backfilling && !late) poll.timer = setTimeout(tick, TAG_KEYS.POLL_MS);
      else tagKeysPoll = null;
      if (!backfilling) tagKeysSaved = null;
    } catch (error) {
      if (tagKeysPoll === poll) tagKeysPoll = null;
      showError(error);
    }
  };
  poll.timer = setTimeout(tick, TAG_KEYS.POLL_MS);
}

function afterTagKeys(answer) {
  const data = withPending(answer);
  renderTagKeys(data);
  if (data.activated.some((a) => a.state === 'backfilling')) return pollTagKeys();
  stopTagKeysPoll();
  tagKeysSaved = null;
}

/** The organisation's activated keys and the keys present, with tag-keys:admin; without it, said so. */
async function loadTagKeys(scopes) {
  stopTagKeysPoll();
  tagKeysSaved = null;
  $('tag-keys').hidden = false;
  if (!scopes.includes('tag-keys:admin')) {
    $('tag-keys-summary').textContent = '';
    $('tag-key-rows').replaceChildren();
    $('tag-keys-form').hidden = true;
    $('tag-keys-locked').hidden = false;
    return;
  }
  const { data } = await call('GET', '/admin/tag-keys');
  $('tag-keys-locked').hidden = true;
  $('tag-keys-form').hidden = false;
  afterTagKeys(data);
}

async function saveTagKeys(event) {
  event.preventDefault();
  clearError();
  const chosen = { tag: [], costCategory: [] };
  const saved = [];
  for (const row of $('tag-key-rows').rows) {
    if (!row.querySelector('input[type="checkbox"]').checked) continue;
    (chosen[row.dataset.kind] ??= []).push(row.dataset.key);
    saved.push({ kind: row.dataset.kind, key: row.dataset.key });
  }
  for (const [kind, keys] of Object.entries(chosen)) {
    if (keys.length > TAG_KEYS.MAX_PER_LIST) {
      throw new ApiProblem(
        `At most ${TAG_KEYS.MAX_PER_LIST} ${TAG_KEYS.KINDS[kind] ?? kind} keys can be activated (${keys.length} chosen).`,
      );
    }
  }
  const save = $('tag-keys-save');
  save.disabled = true;
  try {
    const { data } = await call('PUT', '/admin/tag-keys', chosen);
    tagKeysSaved = saved;
    afterTagKeys(data);
  } finally {
    save.disabled = false;
  }
}

/** A hidden tab asks nothing; shown again, it resumes a poll it stopped. */
function tagKeysVisibilityChanged() {
  if (document.hidden) {
    resumeTagKeysPoll = tagKeysPoll !== null;
    stopTagKeysPoll();
  } else if (resumeTagKeysPoll) {
    resumeTagKeysPoll = false;
    if (!$('tag-keys').hidden && !$('tag-keys-form').hidden) pollTagKeys();
  }
}

async function showKeys() {
  const keys = await loadKeys();
  await loadPermissions();
  await loadCurrency(ownScopes(keys));
  await loadTagKeys(ownScopes(keys));
  await loadSources(ownScopes(keys));
  $('sign-in').hidden = true;
  $('keys').hidden = false;
  $('signed-in-as').textContent = `Signed in as ${SettingsSignIn.who}`;
  $('sign-out').hidden = false;
  $('keys-title').focus?.();
}

async function signOut() {
  await SettingsSignIn.signOut();
  filterOptions = undefined;
  $('signed-in-as').textContent = '';
  $('new-key-value').value = '';
  $('new-key').hidden = true;
  $('keys').hidden = true;
  $('currency').hidden = true;
  stopTagKeysPoll();
  resumeTagKeysPoll = false;
  tagKeysSaved = null;
  $('tag-keys').hidden = true;
  $('sources').hidden = true;
  $('sign-out').hidden = true;
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

document.addEventListener('DOMContentLoaded', () => {
  for (const field of SCOPE_FIELDS) {
    const option = document.createElement('option');
    option.value = field.id;
    option.textContent = field.label;
    $('scope-field').append(option);
  }
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => signOut().catch(showError));
  $('create-form').addEventListener('submit', (event) => createKey(event).catch(showError));
  $('currency-form').addEventListener('submit', (event) => saveCurrency(event).catch(showError));
  $('tag-keys-form').addEventListener('submit', (event) => saveTagKeys(event).catch(showError));
  document.addEventListener('visibilitychange', tagKeysVisibilityChanged);
  $('scope-field').addEventListener('change', () => scopeFieldChanged().catch(showError));
  $('scope-key').addEventListener('change', () => scopeKeyChanged().catch(showError));
  $('copy-key').addEventListener('click', () => copyKey());
  $('new-key-done').addEventListener('click', () => {
    $('new-key-value').value = '';
    $('new-key').hidden = true;
  });
  SettingsSignIn.detect()
    .then(() => (SettingsSignIn.signedIn ? showKeys().catch((error) => signOut().then(() => showError(error))) : showSignIn()))
    .catch(showError);
});
