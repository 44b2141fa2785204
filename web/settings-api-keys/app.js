// Settings > API keys: a page of the service itself (no CDN, no framework, no inline code: the
// Content-Security-Policy allows scripts and styles from this origin only). The header, the sign-in (the identity
// provider's session, or an admin key in this tab only) and the calls to /v1 are page.js's, shared by every page.
'use strict';

const { $, ApiProblem, call, cell, clearError, showError, when, write, listAllKeys } = SettingsPage;

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

let filterOptions;

async function loadKeys() {
  const keys = await listAllKeys();
  const rows = $('key-rows');
  rows.replaceChildren();
  for (const key of keys) {
    const row = document.createElement('tr');
    row.dataset.keyId = key.id;
    if (key.revokedAt) row.className = 'revoked';
    cell(row, key.name);
    write(cell(row, ''), { code: key.id });
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

function resetKeys() {
  filterOptions = undefined;
  $('key-rows').replaceChildren();
  $('new-key-value').value = '';
  $('new-key').hidden = true;
}

SettingsPage.start({
  setup() {
    for (const field of SCOPE_FIELDS) {
      const option = document.createElement('option');
      option.value = field.id;
      option.textContent = field.label;
      $('scope-field').append(option);
    }
    $('create-form').addEventListener('submit', (event) => createKey(event).catch(showError));
    $('scope-field').addEventListener('change', () => scopeFieldChanged().catch(showError));
    $('scope-key').addEventListener('change', () => scopeKeyChanged().catch(showError));
    $('copy-key').addEventListener('click', () => copyKey());
    $('new-key-done').addEventListener('click', () => {
      $('new-key-value').value = '';
      $('new-key').hidden = true;
    });
  },
  async show() {
    await loadKeys();
    await loadPermissions();
  },
  reset: resetKeys,
});
