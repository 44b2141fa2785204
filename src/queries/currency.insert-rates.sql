-- currency.insert-rates: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by insert
INSERT INTO cost_insights.exchange_rates (organization_id, rate_date, base_currency, quote_currency, rate, source, loaded_at) FORMAT JSONEachRow;
