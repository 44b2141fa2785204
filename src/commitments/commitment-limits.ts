/** The default window of the commitments answer: from the first day of the month this many months ago to today. */
export const COMMITMENT_LIMITS = { defaultPastMonths: 2 } as const;
