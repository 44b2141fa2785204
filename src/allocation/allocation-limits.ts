/** The bounds of an /allocation answer, named once (the DTOs describe them, the service applies them). */
export const ALLOCATION_LIMITS = {
  /** Services and accounts listed as the largest unallocated. */
  largest: 10,
  /** The default window starts on the first day of the month this many months ago. */
  defaultPastMonths: 2,
} as const;
