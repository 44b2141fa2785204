import { setFlagsFromString } from 'node:v8';

/**
 * Sets V8's old-generation growing factor for this process (HEAP_GROWING_PERCENT; 0 keeps V8's heuristic).
 *
 * Why: the API's live heap is small (~25 MB) while each answer allocates megabytes that die young. V8 then
 * picks a growing factor of ~1.3 ("GC is cheap here") and, with so little room left above the live heap, keeps
 * starting incremental marking: `--trace-gc` showed a full mark-compact every 2–3 requests of the 1.4 MB
 * monthly-by-account answer (40 per 100 requests), i.e. ~15 ms of main-thread GC per request on average plus
 * concurrent marking threads competing with ClickHouse for the same cores. A factor of 3 left 3 per 100 and
 * took 2–3 ms off that request's median and ~5 ms off its mean (docs/performance.md). The heap grows to about
 * 3× its live size between collections: tens of MB, against an RSS of 150–300 MiB.
 *
 * Applied at start, before the application is created; V8 reads the flag when it next sizes the heap.
 */
export function applyHeapGrowing(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
