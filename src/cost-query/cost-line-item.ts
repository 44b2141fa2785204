import type { MeasureColumn } from './metrics';

/**
 * One row of cost_line_items as written by loaders (demo data, imports, tests): column names, money
 * as decimal strings so the stored Decimal values are exactly what was meant. Its measures (the four costs
 * and six savings sources) are the metrics table's columns.
 */
export interface CostLineItemRow extends Record<MeasureColumn, string> {
  organization_id: string;
  usage_date: string;
  billing_period: string;
  /** ISO 4217 code of the currency every amount of the row is in. */
  billing_currency: string;
  cost_layer: string;
  cloud: string;
  service: string;
  resource_family: string;
  region: string;
  instance_type: string;
  usage_type: string;
  cost_type: string;
  account_id: string;
  account_name: string;
  integration_id: string;
  /** FOCUS 1.3 allocation: the provider's split method, its details (JSON text), the resource split from; '' when not allocated. */
  allocated_method_id?: string;
  allocated_method_details?: string;
  allocated_resource_id?: string;
  allocated_resource_name?: string;
  resource_tags: Record<string, string>;
  cost_categories: Record<string, string>;
  /** The invoice the row was billed on: its billing account, id and issuer ('' when unknown). */
  billing_account_id: string;
  invoice_id: string;
  invoice_issuer: string;
  /** FOCUS ChargeCategory (Usage, Purchase, Tax, Credit, Adjustment) and ChargeClass (Correction or ''); derived from cost_type when omitted. */
  charge_category?: string;
  charge_class?: string;
  /** FOCUS PricingCategory and the commitment discount, capacity reservation and contract commitments of the row ('' and 0 when none). */
  pricing_category?: string;
  commitment_discount_id?: string;
  commitment_discount_name?: string;
  commitment_discount_type?: string;
  commitment_discount_category?: string;
  commitment_discount_status?: string;
  commitment_discount_quantity?: string;
  commitment_discount_unit?: string;
  capacity_reservation_id?: string;
  capacity_reservation_status?: string;
  /** FOCUS 1.3 ContractApplied, its JSON text. */
  contract_applied?: string;
  /** FOCUS ResourceId ('' when the export gives none). */
  resource_id?: string;
  /** FOCUS 1.4 CommitmentProgramEligibilityDetails, its JSON text ('' when the export gives none). */
  commitment_program_eligibility?: string;
}
