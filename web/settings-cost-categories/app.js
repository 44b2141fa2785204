// Settings > Cost categories: the organisation's cost categories defined by ordered rules. The categories defined now,
// an editor (key, billing month, the definition as JSON) that previews a definition (each value's cost and rows, the
// unallocated share before and after, the largest changes) and saves it as a new version, the opened category's
// versions and its deletion; with cost-categories:admin, and without it said so. The header and sign-in are page.js's.
'use strict';

const { $, ApiProblem, call, cell, clearError, showError, when, write, ownScopes } = SettingsPage;

const CATEGORIES = {
  SCOPE: 'cost-categories:admin',
  PATH: '/admin/cost-categories',
  /** What a new category's editor starts from: one of each kind of rule. */
  EXAMPLE: {
    defaultValue: 'Unallocated',
    rules: [
      { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
      { value: 'Payments', caseInsensitive: true, when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
      { inheritTag: 'team' },
    ],
  },
};

/** The key whose versions are shown (the one Delete ends), or null. */
let openedKey = null;

const categoryPath = (key) => `${CATEGORIES.PATH}/${encodeURIComponent(key)}`;
const plural = (count, word) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

function formatShare(share) {
  return `${Number((share * 100).toFixed(2))}%`;
}

function formatCost(amount) {
  return amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function formatChange(before, after) {
  const change = after - before;
  return `${change < 0 ? '−' : '+'}${formatCost(Math.abs(change))}`;
}

/** JSON on one line, a space after each colon and comma (as the API's documentation writes it). */
function inlineJson(value) {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** A definition as the editor shows it: its default value, then its rules (and any splits) one a line; no month. */
function definitionText(definition) {
  const list = (items) => `[\n${items.map((item) => `    ${inlineJson(item)}`).join(',\n')}\n  ]`;
  const fields = [`  "defaultValue": ${JSON.stringify(definition.defaultValue)}`, `  "rules": ${list(definition.rules)}`];
  if (definition.splits?.length) fields.push(`  "splits": ${list(definition.splits)}`);
  return `{\n${fields.join(',\n')}\n}`;
}

function setStatus(text) {
  $('category-status').textContent = text;
}

function setBusy(busy) {
  for (const id of ['category-preview', 'category-save', 'category-delete', 'category-new']) $(id).disabled = busy;
}

/** The list of the categories defined now; each key a button that opens it. */
async function loadCategories() {
  const { categories } = (await call('GET', CATEGORIES.PATH)).data;
  $('categories-summary').textContent = categories.length
    ? `${categories.length === 1 ? '1 cost category' : `${categories.length} cost categories`} defined by rules.`
    : 'No cost category is defined by rules yet.';
  const rows = $('category-rows');
  rows.replaceChildren();
  for (const category of categories) {
    const row = document.createElement('tr');
    row.dataset.key = category.key;
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'link';
    open.textContent = category.key;
    open.setAttribute('aria-label', `Open ${category.key}`);
    open.addEventListener('click', () => openCategory(category.key).catch(showError));
    cell(row, '').append(open);
    cell(row, String(category.version), 'number');
    cell(row, category.effectiveFrom);
    cell(row, category.defaultValue);
    cell(row, String(category.ruleCount), 'number');
    cell(row, when(category.updatedAt));
    rows.append(row);
  }
  $('categories-table').hidden = categories.length === 0;
}

/** A category's versions, the newest first, and Delete while the latest is not a deletion. */
function showVersions(key, versions) {
  openedKey = key;
  write($('versions-title'), 'Versions of ', { code: key });
  const rows = $('version-rows');
  rows.replaceChildren();
  for (const version of [...versions].reverse()) {
    const row = document.createElement('tr');
    row.dataset.version = String(version.version);
    if (version.deleted) row.className = 'revoked';
    cell(row, String(version.version), 'number');
    cell(row, version.effectiveFrom);
    cell(row, when(version.createdAt));
    cell(row, version.createdBy);
    cell(row, version.deleted ? 'Deleted' : `${plural(version.rules.length, 'rule')}, default ${version.defaultValue}`);
    rows.append(row);
  }
  const ended = versions.at(-1)?.deleted ?? true;
  const remove = $('category-delete');
  remove.hidden = ended;
  remove.setAttribute('aria-label', `Delete the category ${key}`);
  $('versions').hidden = false;
}

function hideVersions() {
  openedKey = null;
  $('versions').hidden = true;
  $('version-rows').replaceChildren();
}

function hidePreview() {
  $('preview').hidden = true;
  $('preview-value-rows').replaceChildren();
  $('preview-change-rows').replaceChildren();
}

/** The editor for a new category: no key, no month, the example. */
function newCategory() {
  hidePreview();
  hideVersions();
  setStatus('');
  $('editor-title').textContent = 'Define a category';
  $('category-key').value = '';
  $('category-effective-from').value = '';
  $('category-definition').value = definitionText(CATEGORIES.EXAMPLE);
  $('category-definition').removeAttribute('aria-invalid');
}

/** Opens a category: its versions, and the editor holding its latest definition (without its month). */
async function openCategory(key) {
  clearError();
  const { data } = await call('GET', categoryPath(key));
  hidePreview();
  setStatus('');
  const latest = data.versions.filter((version) => !version.deleted).at(-1);
  write($('editor-title'), 'Change ', { code: key });
  $('category-key').value = key;
  $('category-effective-from').value = '';
  if (latest) $('category-definition').value = definitionText(latest);
  $('category-definition').removeAttribute('aria-invalid');
  showVersions(key, data.versions);
  $('category-key').focus();
}

/** The key and the request body from the editor, or a problem said before anything is asked. */
function editorRequest() {
  const key = $('category-key').value;
  if (!key.trim()) throw new ApiProblem('Give the category a key.');
  const area = $('category-definition');
  let definition;
  try {
    definition = JSON.parse(area.value);
  } catch (error) {
    area.setAttribute('aria-invalid', 'true');
    throw new ApiProblem(`The definition is not valid JSON: ${error.message}`);
  }
  if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
    area.setAttribute('aria-invalid', 'true');
    throw new ApiProblem('The definition must be a JSON object: {"defaultValue": …, "rules": […]}.');
  }
  area.removeAttribute('aria-invalid');
  const month = $('category-effective-from').value;
  return { key, body: month ? { ...definition, effectiveFrom: month } : definition };
}

function showPreview(preview) {
  $('preview-window').textContent =
    `Over ${preview.window.from} to ${preview.window.to}, in ${preview.currency}, as if ${preview.key} were saved: ` +
    'nothing is saved by a preview.';
  const { before, after } = preview.unallocatedShare;
  $('preview-share').textContent =
    `Cost without an owner (the default value, or no value): ${formatShare(before)} now → ${formatShare(after)} once saved.`;
  const values = $('preview-value-rows');
  values.replaceChildren();
  for (const value of preview.values) {
    const row = document.createElement('tr');
    cell(row, value.value);
    cell(row, formatCost(value.amortizedCost), 'number');
    cell(row, value.rows.toLocaleString('en'), 'number');
    values.append(row);
  }
  $('preview-values').querySelector('thead th:nth-child(2)').textContent = `Amortized cost (${preview.currency})`;
  $('preview-values').hidden = preview.values.length === 0;
  $('preview-no-values').hidden = preview.values.length > 0;
  const changes = $('preview-change-rows');
  changes.replaceChildren();
  for (const change of preview.changes) {
    const row = document.createElement('tr');
    cell(row, change.value);
    cell(row, formatCost(change.before), 'number');
    cell(row, formatCost(change.after), 'number');
    cell(row, formatChange(change.before, change.after), 'number');
    changes.append(row);
  }
  $('preview-changes').hidden = preview.changes.length === 0;
  $('preview-no-changes').hidden = preview.changes.length > 0;
  $('preview').hidden = false;
}

async function previewCategory() {
  clearError();
  setStatus('');
  const { key, body } = editorRequest();
  setBusy(true);
  try {
    const { data } = await call('PUT', `${categoryPath(key)}?dryRun=true`, body);
    showPreview(data);
  } finally {
    setBusy(false);
  }
}

async function saveCategory(event) {
  event.preventDefault();
  clearError();
  setStatus('');
  const { key, body } = editorRequest();
  setBusy(true);
  try {
    const { data } = await call('PUT', categoryPath(key), body);
    hidePreview();
    const saved = data.versions.at(-1);
    write($('editor-title'), 'Change ', { code: data.key });
    showVersions(data.key, data.versions);
    await loadCategories();
    setStatus(`Saved version ${saved.version} of ${data.key}, in effect from ${saved.effectiveFrom}.`);
  } finally {
    setBusy(false);
  }
}

async function deleteCategory() {
  const key = openedKey;
  if (!key) return;
  const question =
    `Delete the category "${key}"? Questions stop reading its rules; an imported category of the same key reads as exported ` +
    'again. Its versions are kept.';
  if (!window.confirm(question)) return;
  clearError();
  setStatus('');
  setBusy(true);
  try {
    const { data } = await call('DELETE', categoryPath(key));
    hidePreview();
    showVersions(data.key, data.versions);
    await loadCategories();
    setStatus(`Deleted ${data.key}: its versions are kept.`);
  } finally {
    setBusy(false);
  }
}

/** With cost-categories:admin, the list and the editor; without it, said so (and nothing asked). */
async function showCostCategories() {
  resetCostCategories();
  if (!(await ownScopes()).includes(CATEGORIES.SCOPE)) {
    $('categories-summary').textContent = '';
    $('categories-content').hidden = true;
    $('categories-locked').hidden = false;
    return;
  }
  await loadCategories();
  $('categories-locked').hidden = true;
  $('categories-content').hidden = false;
}

function resetCostCategories() {
  newCategory();
  $('category-rows').replaceChildren();
  $('categories-summary').textContent = '';
}

SettingsPage.start({
  setup() {
    $('category-form').addEventListener('submit', (event) => saveCategory(event).catch(showError));
    $('category-preview').addEventListener('click', () => previewCategory().catch(showError));
    $('category-delete').addEventListener('click', () => deleteCategory().catch(showError));
    $('category-new').addEventListener('click', () => {
      clearError();
      newCategory();
      $('category-key').focus();
    });
  },
  show: showCostCategories,
  reset: resetCostCategories,
});
