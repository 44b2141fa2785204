// Settings > Currency and rates: the organisation's reporting currency and conversion policy, and the exchange rates
// loaded; read and set with rates:admin, and without it said so. The header and sign-in are page.js's.
'use strict';

const { $, call, cell, clearError, showError, ownScopes } = SettingsPage;

const POLICIES = { usage_date: 'its usage day', period_end: "its billing period's last day" };

function showLocked() {
  $('currency-summary').textContent = "Answers are in the organisation's reporting currency (USD unless an admin sets another).";
  $('currency-locked').hidden = false;
  $('currency-form').hidden = true;
  $('rates').hidden = true;
}

function showRates(exchangeRates) {
  const rows = $('rate-rows');
  rows.replaceChildren();
  for (const pair of exchangeRates) {
    const row = document.createElement('tr');
    cell(row, `${pair.base}/${pair.quote}`);
    cell(row, String(pair.rates));
    cell(row, pair.firstDate);
    cell(row, pair.lastDate);
    cell(row, pair.sources.join(', '));
    rows.append(row);
  }
  $('rates').hidden = exchangeRates.length === 0;
}

async function loadCurrency() {
  const settings = (await call('GET', '/admin/currency')).data;
  const billed = settings.billingCurrencies.length ? settings.billingCurrencies.join(', ') : 'no costs yet';
  $('currency-summary').textContent =
    `Answers are in ${settings.reportingCurrency}; each cost is converted at the rate of ${POLICIES[settings.conversionPolicy]}. ` +
    `Costs are billed in: ${billed}.`;
  $('reporting-currency').value = settings.reportingCurrency;
  $('conversion-policy').value = settings.conversionPolicy;
  $('currency-locked').hidden = true;
  $('currency-form').hidden = false;
  showRates(settings.exchangeRates);
}

async function saveCurrency(event) {
  event.preventDefault();
  clearError();
  await call('PUT', '/admin/currency', {
    reportingCurrency: $('reporting-currency').value.trim(),
    conversionPolicy: $('conversion-policy').value,
  });
  await loadCurrency();
}

SettingsPage.start({
  setup() {
    $('currency-form').addEventListener('submit', (event) => saveCurrency(event).catch(showError));
  },
  async show() {
    if ((await ownScopes()).includes('rates:admin')) await loadCurrency();
    else showLocked();
  },
});
