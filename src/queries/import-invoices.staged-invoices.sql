-- import-invoices.staged-invoices: written by npm run queries:golden (scripts/golden-repositories.ts); do not edit.
-- statement 1 of 1, sent by query
SELECT
    integration_id,
    billing_account_id,
    billing_period,
    invoice_id,
    billing_currency,
    argMax(invoice_issuer, invoice_issuer != '') AS issuer,
    toString(count()) AS row_count,
    toString(sum(billed_cost)) AS total_billed,
    toString(sum(amortized_cost)) AS total_effective,
    map('usage', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) = 'usage'))), 'purchase', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) = 'purchase'))), 'tax', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) = 'tax'))), 'credit', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) = 'credit'))), 'adjustment', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) = 'adjustment'))), 'other', toString(sumIf(billed_cost, (NOT (charge_class = 'Correction')) AND (lower(charge_category) NOT IN ('usage', 'purchase', 'tax', 'credit', 'adjustment'))))) AS by_category,
    toString(sumIf(billed_cost, charge_class = 'Correction')) AS total_corrections
FROM cost_insights.focus_import_mwvps5c0_7f3e2a1b
WHERE 1
GROUP BY
    integration_id,
    billing_account_id,
    billing_period,
    invoice_id,
    billing_currency
ORDER BY
    billing_period ASC,
    billing_account_id ASC,
    invoice_id ASC,
    billing_currency ASC
SETTINGS max_execution_time = 0;
