-- The commitments' aggregate projections (issue 57). /commitments sums usage and commitment rows by the commitment
-- columns, the charge category, the service and the eligibility its coverage reads; no other projection keeps those,
-- so it read every line item of the window (x18-33 the /data question of the same months at 10M line items).
--
-- Kept by day and by month with only the list fields a commitment question is most often narrowed by (cloud, service,
-- account, billing period and currency). With every list field they would be nearly as large as the rows, since a
-- commitment's usage spreads over regions, instance and usage types: on the bench estate's 7M line items of one
-- organisation, 2.64M daily and 236k monthly rows against these 1.36M and 77k. A question filtered (or a key scoped)
-- by another field or by tags reads the line items, as before.
ALTER TABLE {{database}}.cost_line_items
    ADD PROJECTION IF NOT EXISTS daily_commitment_sums
    (
        SELECT
            organization_id, usage_date, billing_period, billing_currency, charge_category, cloud, service, account_id,
            billing_account_id, commitment_discount_id, commitment_discount_name, commitment_discount_type,
            commitment_discount_category, commitment_discount_status, commitment_discount_unit, commitment_program_eligibility,
            sum(amortized_cost), sum(on_demand_cost), sum(commitment_discount_quantity), count()
        GROUP BY
            organization_id, usage_date, billing_period, billing_currency, charge_category, cloud, service, account_id,
            billing_account_id, commitment_discount_id, commitment_discount_name, commitment_discount_type,
            commitment_discount_category, commitment_discount_status, commitment_discount_unit, commitment_program_eligibility
    ),
    ADD PROJECTION IF NOT EXISTS monthly_commitment_sums
    (
        SELECT
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cloud, service, account_id,
            billing_account_id, commitment_discount_id, commitment_discount_name, commitment_discount_type,
            commitment_discount_category, commitment_discount_status, commitment_discount_unit, commitment_program_eligibility,
            sum(amortized_cost), sum(on_demand_cost), sum(commitment_discount_quantity), count()
        GROUP BY
            organization_id, toStartOfMonth(usage_date), billing_period, billing_currency, charge_category, cloud, service, account_id,
            billing_account_id, commitment_discount_id, commitment_discount_name, commitment_discount_type,
            commitment_discount_category, commitment_discount_status, commitment_discount_unit, commitment_program_eligibility
    );

ALTER TABLE {{database}}.cost_line_items
    MATERIALIZE PROJECTION daily_commitment_sums,
    MATERIALIZE PROJECTION monthly_commitment_sums
SETTINGS mutations_sync = 1;
