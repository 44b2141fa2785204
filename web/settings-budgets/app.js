// Settings > Budgets: the budgets the key may manage, each with how it stands in its current period (actual, % used,
// pro-rated amount, forecast and its interval, each threshold's state); an editor that creates one (its webhook
// signing secret shown once) or changes the opened one; the opened budget's thresholds, past periods and alerts with
// their deliveries, and its deletion. With budgets:admin, and without it said so. The header and sign-in are page.js's.
'use strict';

const { $, ApiProblem, call, cell, clearError, showError, when, write, ownScopes } = SettingsPage;

const BUDGETS = {
  SCOPE: 'budgets:admin',
  /** The figures come from the status of cost data, which needs cost:read as well. */
  FIGURES_SCOPE: 'cost:read',
  PATH: '/admin/budgets',
  STATUS_PATH: '/cost-insights/budgets',
  STATES: { ok: 'ok', breached: 'breached', forecast_breach: 'forecast to breach' },
  NONE: '—',
};

/** The budgets as saved (GET /admin/budgets), their status by id, and the one opened in the editor (null: a new one). */
let budgets = [];
let statuses = new Map();
let openedId = null;
/** Whether the signed-in key may read the figures (asked once per sign-in, with the permissions). */
let figuresReadable = false;

const budgetPath = (budgetId) => `${BUDGETS.PATH}/${encodeURIComponent(budgetId)}`;

function formatMoney(amount) {
  return amount === null || amount === undefined
    ? BUDGETS.NONE
    : amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function formatPercent(percent) {
  return percent === null || percent === undefined ? BUDGETS.NONE : `${formatMoney(percent)}%`;
}

function formatForecast(forecast) {
  if (!forecast) return 'not yet (under 14 days of history)';
  return `${formatMoney(forecast.mean)} (${formatMoney(forecast.lower)} – ${formatMoney(forecast.upper)})`;
}

const thresholdName = (threshold) => `${threshold.kind} ${threshold.percent}%`;

/** Every threshold and its state on one line, as the list shows them. */
function thresholdsSummary(thresholds) {
  if (thresholds.length === 0) return 'none';
  return thresholds.map((threshold) => `${thresholdName(threshold)}: ${BUDGETS.STATES[threshold.state] ?? threshold.state}`).join('; ');
}

function setStatus(text) {
  $('budget-status').textContent = text;
}

function setBusy(busy) {
  for (const id of ['budget-save', 'budget-delete', 'budget-new']) $(id).disabled = busy;
}

/** The budgets and, with cost:read, their status; a status the API refuses is said, and the list still shown. */
async function loadBudgets() {
  budgets = (await call('GET', BUDGETS.PATH)).data.budgets;
  statuses = new Map();
  const note = $('figures-note');
  note.hidden = true;
  if (!figuresReadable) {
    write(note, 'How each budget stands needs the ', { code: BUDGETS.FIGURES_SCOPE }, ' permission as well.').hidden = false;
  } else if (budgets.length > 0) {
    try {
      const { data } = await call('POST', BUDGETS.STATUS_PATH, {});
      statuses = new Map(data.budgets.map((status) => [status.budgetId, status]));
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      note.textContent = `How each budget stands could not be read: ${error.message}`;
      note.hidden = false;
    }
  }
  showBudgetRows();
}

function showBudgetRows() {
  $('budgets-summary').textContent = budgets.length
    ? `${budgets.length === 1 ? '1 budget' : `${budgets.length} budgets`}.`
    : 'No budget yet: create one below.';
  const rows = $('budget-rows');
  rows.replaceChildren();
  for (const budget of budgets) rows.append(budgetRow(budget, statuses.get(budget.budgetId)));
  $('budgets-table').hidden = budgets.length === 0;
}

/** One budget's row: its name as a button that opens it, then its current period's figures (or dashes without them). */
function budgetRow(budget, status) {
  const row = document.createElement('tr');
  row.dataset.budgetId = budget.budgetId;
  const open = document.createElement('button');
  open.type = 'button';
  open.className = 'link';
  open.textContent = budget.name;
  open.setAttribute('aria-label', `Open ${budget.name}`);
  open.addEventListener('click', () => openBudget(budget.budgetId).catch(showError));
  cell(row, '').append(open);
  cell(row, status ? `${status.period.label} (${budget.period})` : budget.period);
  cell(row, budget.currency);
  cell(row, status ? formatMoney(status.amount) : BUDGETS.NONE, 'number');
  cell(row, status ? formatMoney(status.actual) : BUDGETS.NONE, 'number');
  cell(row, status ? formatPercent(status.percent_used) : BUDGETS.NONE, 'number');
  cell(row, status ? formatMoney(status.prorated_amount) : BUDGETS.NONE, 'number');
  cell(row, status ? formatForecast(status.forecast) : BUDGETS.NONE, 'number');
  cell(row, status ? thresholdsSummary(status.thresholds) : budget.thresholds.map(thresholdName).join('; ') || 'none');
  return row;
}

/** JSON on one line, as the editor's small fields show it. */
const inlineJson = (value) => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');

/** Fills the editor with a budget's definition (empty for a new one). */
function fillEditor(budget) {
  const { default: perPeriod, ...planned } = budget?.amounts ?? {};
  const percents = (kind) => (budget?.thresholds ?? []).filter((threshold) => threshold.kind === kind).map(({ percent }) => percent);
  $('budget-name').value = budget?.name ?? '';
  $('budget-period').value = budget?.period ?? 'monthly';
  $('budget-metric').value = budget?.metric ?? 'amortized_cost';
  $('budget-currency').value = budget?.currency ?? '';
  $('budget-amount').value = perPeriod ?? '';
  $('budget-planned').value = Object.keys(planned).length ? inlineJson(planned) : '';
  $('budget-actual-thresholds').value = percents('actual').join(', ');
  $('budget-forecast-thresholds').value = percents('forecast').join(', ');
  const filters = budget?.filters ?? {};
  $('budget-filters').value = Object.keys(filters).length ? JSON.stringify(filters, null, 2) : '';
  $('budget-notify').value = (budget?.notify ?? [])
    .map(({ url, format }) => (format && format !== 'json' ? `${url} ${format}` : url))
    .join('\n');
  for (const id of ['budget-planned', 'budget-filters', 'budget-notify']) $(id).removeAttribute('aria-invalid');
}

/** The editor for a new budget. */
function newBudget() {
  openedId = null;
  hideDetails();
  setStatus('');
  $('editor-title').textContent = 'Create a budget';
  fillEditor(null);
}

/** A JSON field's object, or undefined when empty; a problem said before anything is asked. */
function jsonField(id, what) {
  const area = $(id);
  area.removeAttribute('aria-invalid');
  if (!area.value.trim()) return undefined;
  let value;
  try {
    value = JSON.parse(area.value);
  } catch (error) {
    area.setAttribute('aria-invalid', 'true');
    throw new ApiProblem(`The ${what} are not valid JSON: ${error.message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    area.setAttribute('aria-invalid', 'true');
    throw new ApiProblem(`The ${what} must be a JSON object: {…}.`);
  }
  return value;
}

/** The percents of a threshold field; anything not a whole number is sent as typed, for the API to say what is wrong. */
function thresholdsOf(id, kind) {
  return $(id)
    .value.split(/[\s,]+/)
    .filter(Boolean)
    .map((text) => ({ kind, percent: /^-?\d+$/.test(text) ? Number(text) : text }));
}

/** The destinations, one a line: a URL and an optional format. */
function destinations() {
  const area = $('budget-notify');
  area.removeAttribute('aria-invalid');
  const lines = area.value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.map((line, i) => {
    const [url, format, ...rest] = line.split(/\s+/);
    if (rest.length) {
      area.setAttribute('aria-invalid', 'true');
      throw new ApiProblem(`Webhook destination ${i + 1}: expected a URL and at most a format (json, slack or teams).`);
    }
    return format ? { url, format } : { url };
  });
}

/** The request body from the editor: what the API needs, optional fields only when given. */
function editorRequest() {
  const amount = $('budget-amount').value.trim();
  const planned = jsonField('budget-planned', 'planned amounts');
  const filters = jsonField('budget-filters', 'filters');
  const currency = $('budget-currency').value.trim();
  return {
    name: $('budget-name').value,
    period: $('budget-period').value,
    metric: $('budget-metric').value,
    ...(currency ? { currency } : {}),
    amounts: { ...(amount ? { default: amount } : {}), ...planned },
    thresholds: [...thresholdsOf('budget-actual-thresholds', 'actual'), ...thresholdsOf('budget-forecast-thresholds', 'forecast')],
    ...(filters ? { filters } : {}),
    notify: destinations(),
  };
}

async function saveBudget(event) {
  event.preventDefault();
  clearError();
  setStatus('');
  const body = editorRequest();
  setBusy(true);
  try {
    const creating = openedId === null;
    const { data } = await call(creating ? 'POST' : 'PUT', creating ? BUDGETS.PATH : budgetPath(openedId), body);
    if (creating) showSecret(data);
    await openBudget(data.budgetId, { keepStatus: true });
    setStatus(creating ? `Created ${data.name}.` : `Saved ${data.name} (version ${data.version}).`);
    // Where the eye should go: the secret to copy, once.
    if (creating) {
      $('new-secret-value').focus();
      $('new-secret-value').select();
    }
  } finally {
    setBusy(false);
  }
}

/** The new budget's signing secret: here once, never asked for again (the API shows it in this answer only). */
function showSecret(created) {
  write($('new-secret-title'), 'The webhook signing secret of ', { code: created.name });
  $('new-secret-value').value = created.signingSecret;
  $('copy-status').textContent = '';
  $('new-secret').hidden = false;
}

function hideSecret() {
  $('new-secret-value').value = '';
  $('new-secret').hidden = true;
}

async function copySecret() {
  try {
    await navigator.clipboard.writeText($('new-secret-value').value);
    $('copy-status').textContent = 'Copied to the clipboard.';
  } catch {
    $('new-secret-value').select();
    $('copy-status').textContent = 'Press Ctrl+C (⌘C) to copy the selected secret.';
  }
}

/** Opens a budget: the editor holding its definition, its thresholds, past periods and alerts, all read afresh. */
async function openBudget(budgetId, { keepStatus = false } = {}) {
  clearError();
  await loadBudgets();
  const budget = budgets.find((candidate) => candidate.budgetId === budgetId);
  if (!budget) throw new ApiProblem('That budget is no longer there.');
  const { alerts } = (await call('GET', `${budgetPath(budgetId)}/alerts`)).data;
  openedId = budgetId;
  if (!keepStatus) setStatus('');
  write($('editor-title'), 'Change ', { code: budget.name });
  fillEditor(budget);
  showDetails(budget, statuses.get(budgetId), alerts);
  if (!keepStatus) $('budget-name').focus();
}

function showDetails(budget, status, alerts) {
  write($('details-title'), { code: budget.name });
  const scope = budget.dataScope ? `, within the data scope ${budget.dataScope}` : '';
  $('details-definition').textContent =
    `In ${budget.currency}, ${budget.metric === 'billed_cost' ? 'billed' : 'amortized'} cost${scope}; ` +
    `version ${budget.version}, saved ${when(budget.updatedAt)} by ${budget.updatedBy}.`;
  showThresholds(status);
  showHistory(status);
  showAlerts(alerts);
  $('budget-delete').setAttribute('aria-label', `Delete the budget ${budget.name}`);
  $('details').hidden = false;
}

function showThresholds(status) {
  const rows = $('threshold-rows');
  rows.replaceChildren();
  for (const threshold of status?.thresholds ?? []) {
    const row = document.createElement('tr');
    cell(row, threshold.kind);
    cell(row, `${threshold.percent}%`, 'number');
    cell(row, formatMoney(threshold.amount), 'number');
    cell(row, BUDGETS.STATES[threshold.state] ?? threshold.state, threshold.state === 'ok' ? '' : 'warning');
    cell(row, when(threshold.since, BUDGETS.NONE));
    cell(row, threshold.kind === 'forecast' ? (threshold.crossing_date ?? 'not in this period') : BUDGETS.NONE);
    rows.append(row);
  }
  if (status) $('threshold-caption').textContent = `Thresholds in the current period, ${periodText(status.period)}`;
  $('threshold-table').hidden = !status?.thresholds.length;
}

const periodText = (period) => `${period.label} (${period.start} to ${period.end})`;

function showHistory(status) {
  const rows = $('history-rows');
  rows.replaceChildren();
  for (const past of status?.history ?? []) {
    const row = document.createElement('tr');
    cell(row, past.period.label);
    cell(row, formatMoney(past.amount), 'number');
    cell(row, formatMoney(past.actual), 'number');
    cell(row, formatPercent(past.percent_used), 'number');
    rows.append(row);
  }
  $('history-table').hidden = !status?.history.length;
}

/** Each delivery attempt in words: which destination, its outcome, the receiver's status, why it failed. */
function deliveriesText(alert) {
  if (alert.deliveries.length === 0) return 'none';
  return alert.deliveries
    .map((attempt) => {
      const answer = attempt.status_code ? `HTTP ${attempt.status_code}` : 'no answer';
      const why = attempt.error ? `, ${attempt.error}` : '';
      return `destination ${attempt.destination + 1}, attempt ${attempt.attempt}: ${attempt.outcome} (${answer}${why}) ${when(attempt.at)}`;
    })
    .join('; ');
}

function showAlerts(alerts) {
  const rows = $('alert-rows');
  rows.replaceChildren();
  for (const alert of alerts) {
    const row = document.createElement('tr');
    row.dataset.eventId = alert.eventId;
    cell(row, when(alert.at));
    cell(row, alert.event);
    cell(row, thresholdName(alert.threshold));
    cell(row, `${alert.period.start} to ${alert.period.end}`);
    cell(row, deliveriesText(alert));
    cell(row, alert.dead_letter ? 'yes' : 'no');
    rows.append(row);
  }
  $('alert-table').hidden = alerts.length === 0;
  $('no-alerts').hidden = alerts.length > 0;
}

function hideDetails() {
  $('details').hidden = true;
  for (const id of ['threshold-rows', 'history-rows', 'alert-rows']) $(id).replaceChildren();
}

async function deleteBudget() {
  const budget = budgets.find((candidate) => candidate.budgetId === openedId);
  if (!budget) return;
  const question = `Delete the budget "${budget.name}"? It is no longer evaluated and alerts no one; its past alerts are kept 13 months.`;
  if (!window.confirm(question)) return;
  clearError();
  setBusy(true);
  try {
    await call('DELETE', budgetPath(budget.budgetId));
    newBudget();
    await loadBudgets();
    setStatus(`Deleted ${budget.name}.`);
  } finally {
    setBusy(false);
  }
}

/** With budgets:admin, the list and the editor; without it, said so (and nothing asked). */
async function showBudgets() {
  resetBudgets();
  const scopes = await ownScopes();
  if (!scopes.includes(BUDGETS.SCOPE)) {
    $('budgets-content').hidden = true;
    $('budgets-locked').hidden = false;
    return;
  }
  figuresReadable = scopes.includes(BUDGETS.FIGURES_SCOPE);
  await loadBudgets();
  $('budgets-locked').hidden = true;
  $('budgets-content').hidden = false;
}

function resetBudgets() {
  budgets = [];
  figuresReadable = false;
  statuses = new Map();
  newBudget();
  hideSecret();
  $('budget-rows').replaceChildren();
  $('budgets-summary').textContent = '';
  $('figures-note').hidden = true;
}

SettingsPage.start({
  setup() {
    $('budget-form').addEventListener('submit', (event) => saveBudget(event).catch(showError));
    $('budget-delete').addEventListener('click', () => deleteBudget().catch(showError));
    $('copy-secret').addEventListener('click', () => copySecret());
    $('new-secret-done').addEventListener('click', hideSecret);
    $('budget-new').addEventListener('click', () => {
      clearError();
      newBudget();
      $('budget-name').focus();
    });
  },
  show: showBudgets,
  reset: resetBudgets,
});
