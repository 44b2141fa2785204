// modes: embedded server — the process's statement queue, without and with a server
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { loadDemoData } from '../../src/demo/demo-data.loader';
import { HttpAnswer, listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * One organisation must not starve the others. The attack that did (issue 24): 12 concurrent 1,098-day
 * daily /compare requests grouped by usageType, paced to stay within the rate limit, each far too large
 * to answer. On the embedded engine every statement waits in one process-wide queue, and each of those
 * ran ~1.7 s before its 400: another organisation's cheap /data went from 0.04 s to 8–14.5 s. Now the
 * oversized comparison is refused by a probe that stops at the first value too many, and every
 * organisation's statements take turns (FairScheduler).
 */
const ATTACKERS = 12;
const SAMPLES = 40;
const SAMPLE_SPACING_MS = 250; // 40 samples over ~10 s: every attacker sends several requests meanwhile
const PACE_MS = 2_500; // 12 workers, one request each per 2.5 s at most: 288 a minute, under the limit of 300

describe('fairness between organisations', () => {
  let t: TestApp;
  let base: string;
  let attacker: TestOrganization;
  let victim: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({ RATE_LIMIT_PER_MINUTE: '300' });
    base = await listen(t);
    attacker = await t.newOrganization();
    victim = await t.newOrganization();
    // The attacker's own estate: the demo's 13 months of a multi-cloud organisation (hundreds of usage types).
    await loadDemoData(t.clickhouse, { organizationId: attacker.organizationId });
    await t.insertRows(
      victim.organizationId,
      Array.from({ length: 30 }, (_, day) => ({
        usage_date: addDays('2026-10-01', day),
        amortized_cost: '1.5',
        service: `svc-${day % 3}`,
      })),
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: TestOrganization, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
    send(
      `${base}/v1/cost-insights/${path}`,
      {
        method: 'POST',
        headers: { ...who.auth, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      },
      60_000,
    );

  /** The victim's cheap question, computed afresh every time (never from the answer cache). */
  async function victimLatencies(count: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const answer = await post(
        victim,
        'data',
        {
          filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-30' } } },
          groupBy: { dateGrouping: 'monthly', dimension: 'service' },
        },
        { 'Cache-Control': 'no-store' },
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).data.summary.total_amortized_cost).toBe(45);
      latencies.push(answer.ms);
      await sleep(SAMPLE_SPACING_MS);
    }
    return latencies;
  }

  it("keeps another organisation's cheap request within 2× its unloaded p50 while one floods oversized /compare requests", async () => {
    const end = addDays(todayUtc(), -1);
    const oversized = {
      baselinePeriod: { start: addDays(end, -2 * 1098 + 1), end: addDays(end, -1098) },
      comparisonPeriod: { start: addDays(end, -1097), end },
      metric: 'amortized_cost',
      groupBy: { dimension: 'usageType', dateGrouping: 'daily' },
    };
    await victimLatencies(5); // warm-up
    const unloaded = median(await victimLatencies(SAMPLES));

    let attacking = true;
    const statuses: Record<number, number> = {};
    const attackerLatencies: number[] = [];
    const attack = Array.from({ length: ATTACKERS }, async () => {
      while (attacking) {
        const answer = await post(attacker, 'compare', oversized); // errors are never cached: each one is computed
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        attackerLatencies.push(answer.ms);
        if (answer.status === 400) expect(JSON.parse(answer.text).error.message).toContain('by_date points');
        await sleep(Math.max(0, PACE_MS - answer.ms));
      }
    });
    await sleep(1_000); // the attack is under way
    const underAttack = median(await victimLatencies(SAMPLES));
    attacking = false;
    await Promise.all(attack);

    console.log(
      `fairness[${process.env.E2E_MODE}]: victim /data p50 ${unloaded} ms unloaded, ${underAttack} ms under attack ` +
        `(×${(underAttack / unloaded).toFixed(2)}); attacker: ${JSON.stringify(statuses)} statuses, p50 ${median(attackerLatencies)} ms`,
    );
    expect(Object.keys(statuses).every((status) => status === '400' || status === '429')).toBe(true);
    expect(statuses[400]).toBeGreaterThan(0);
    expect(underAttack).toBeLessThanOrEqual(2 * unloaded);
  }, 180_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
