// Settings > Data sources: where the organisation's cost exports are delivered and the state of each (last check,
// last import, lag, last problem in words), with sources:admin; without it, said so. The header and sign-in are page.js's.
'use strict';

const { $, call, cell, when, ownScopes } = SettingsPage;

function showSources(sources) {
  $('sources-summary').textContent = sources.length
    ? `${sources.length} data source${sources.length === 1 ? '' : 's'}.`
    : 'No data sources.';
  $('sources-none').hidden = sources.length > 0;
  const rows = $('source-rows');
  rows.replaceChildren();
  for (const source of sources) {
    const { status } = source;
    const row = document.createElement('tr');
    cell(row, source.integrationId);
    cell(row, source.kind);
    cell(row, source.url);
    cell(row, status.lastCheckAt ? `${when(status.lastCheckAt)} (${status.lastOutcome})` : 'not yet');
    cell(row, status.lastImportAt ? `${when(status.lastImportAt)}: ${status.lastImportBillingPeriods.join(', ')}` : 'none');
    cell(row, status.lastImportLagSeconds === null ? '' : `${Math.round(status.lastImportLagSeconds / 60)} min`);
    cell(row, status.lastProblem ? `${status.lastProblem.outcome}: ${status.lastProblem.message}` : 'none');
    rows.append(row);
  }
  $('sources-table').hidden = sources.length === 0;
}

SettingsPage.start({
  async show() {
    const allowed = (await ownScopes()).includes('sources:admin');
    $('sources-locked').hidden = allowed;
    if (allowed) return showSources((await call('GET', '/admin/sources')).data);
    $('sources-summary').textContent = '';
    $('sources-none').hidden = true;
    $('sources-table').hidden = true;
  },
});
