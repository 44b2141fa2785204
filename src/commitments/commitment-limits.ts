/** The default window of the commitments answer: from the first day of the month this many months ago to today. */
export const COMMITMENT_LIMITS = { defaultPastMonths: 2 } as const;

/** The contracts answer's limits and defaults, written once (the DTOs, the service and the docs quote them). */
export const CONTRACT_LIMITS = {
  /** Contract ids one request may name. */
  maxContractIds: 100,
  /** The projection interval's level (percent) when the request gives none. */
  defaultLevel: 80,
} as const;
