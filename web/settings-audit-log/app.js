// Settings > Audit log: the organisation's administrative changes (GET /v1/admin/audit-events), filtered, paged with
// "Load more" and downloadable as CSV. Like every Settings page: no CDN, no framework, no inline code; the header,
// the sign-in and the calls to /v1 are page.js's.
'use strict';

const { $, cell, clearError, showError, request } = SettingsPage;
const EVENTS = '/admin/audit-events';
/** Events per "Load more". */
const PAGE_SIZE = 50;

/** The filters of the events shown, and where the next page starts (null: no more). */
let shown = { filters: new URLSearchParams(), nextCursor: null, count: 0 };

/** One answer of the events: JSON pages, or CSV (`accept`). */
function get(query, accept = 'application/json') {
  return request(`${EVENTS}?${query}`, { headers: { Accept: accept } });
}

/** Details as `field: value` lines; lists and objects as compact JSON. */
function describeDetails(details) {
  return Object.entries(details)
    .map(([field, value]) => `${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

function appendEvents(events) {
  const rows = $('event-rows');
  for (const event of events) {
    const row = document.createElement('tr');
    row.dataset.eventId = event.id;
    row.dataset.action = event.action;
    cell(row, event.at.replace('T', ' ').replace('Z', ''));
    cell(row, event.action);
    cell(row, event.actor.kind === 'api-key' ? `key ${event.actor.id}` : `${event.actor.email} (${event.actor.id})`);
    cell(row, event.target);
    cell(row, describeDetails(event.details)).className = 'details';
    cell(row, event.clientIp);
    cell(row, event.requestId);
    rows.append(row);
  }
}

/** The filters of the form as query parameters (only those given). */
function chosenFilters() {
  const filters = new URLSearchParams();
  for (const name of ['from', 'to', 'actor', 'action']) {
    const value = $(`filter-${name}`).value.trim();
    if (value) filters.set(name, value);
  }
  return filters;
}

/** One page of events of `filters`, from `cursor` (null: the newest). */
async function readPage(filters, cursor) {
  const query = new URLSearchParams(filters);
  query.set('limit', String(PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  return (await (await get(query)).json()).data;
}

/** Adds a page's events below those shown. */
function show(page) {
  appendEvents(page.events);
  shown.nextCursor = page.nextCursor;
  shown.count += page.events.length;
  $('load-more').hidden = !page.nextCursor;
  const count = `${shown.count} event${shown.count === 1 ? '' : 's'}`;
  $('events-summary').textContent = shown.count
    ? `${count}, newest first${page.nextCursor ? '; more with "Load more"' : ''}.`
    : 'No events match.';
}

async function applyFilters(event) {
  event?.preventDefault();
  clearError();
  const filters = chosenFilters();
  // Read before the table is emptied: a refused filter keeps what is shown.
  const page = await readPage(filters, null);
  shown = { filters, nextCursor: null, count: 0 };
  $('event-rows').replaceChildren();
  show(page);
}

async function loadMore() {
  clearError();
  show(await readPage(shown.filters, shown.nextCursor));
}

/** Every event of the filters as one CSV file: the API's CSV pages (X-Next-Cursor), their header once. */
async function downloadCsv() {
  clearError();
  $('download-status').textContent = 'Preparing the CSV…';
  const filters = chosenFilters();
  const parts = [];
  let cursor = null;
  do {
    const query = new URLSearchParams(filters);
    if (cursor) query.set('cursor', cursor);
    const response = await get(query, 'text/csv');
    const text = await response.text();
    parts.push(parts.length === 0 ? text : text.slice(text.indexOf('\r\n') + 2));
    cursor = response.headers.get('X-Next-Cursor');
  } while (cursor);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob(parts, { type: 'text/csv' }));
  link.download = `audit-events-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  $('download-status').textContent = 'CSV downloaded.';
}

/** The actions come from the service's own OpenAPI document: one definition, never a copy here. */
async function loadActions() {
  const document_ = await (await fetch('/docs-json', { cache: 'no-store' })).json();
  const action = document_.paths['/v1/admin/audit-events'].get.parameters.find((parameter) => parameter.name === 'action');
  const select = $('filter-action');
  select.querySelectorAll('option:not([value=""])').forEach((option) => option.remove());
  for (const name of action.schema.enum) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    select.append(option);
  }
}

function resetAudit() {
  shown = { filters: new URLSearchParams(), nextCursor: null, count: 0 };
  $('event-rows').replaceChildren();
}

SettingsPage.start({
  setup() {
    $('filters').addEventListener('submit', (event) => applyFilters(event).catch(showError));
    $('load-more').addEventListener('click', () => loadMore().catch(showError));
    $('download-csv').addEventListener('click', () =>
      downloadCsv().catch((error) => {
        $('download-status').textContent = '';
        showError(error);
      }),
    );
  },
  async show() {
    await applyFilters();
    await loadActions();
  },
  reset: resetAudit,
});
