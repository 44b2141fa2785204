// modes: embedded — the event loop during a source's check
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { listen, send } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * A check of a large source never stalls the service. Found by an attack: one check of a folder of 30,000 empty files,
 * or of a 2 MB manifest naming 50,000 parts, held the event loop — /health/live took 18–33 s for every tenant (each
 * object was looked up in the whole listing, and groups were copied at every file). Now listing and matching are
 * linear and yield between slices: the liveness probe, asked every 20 ms while the check runs, answers in 250 ms (a
 * Kubernetes probe waits 1 s). Measured alone: slowest probe 42–82 ms (30,000 files), 8–36 ms (the manifest), once
 * 164 ms in CI (parsing the 2 MB manifest is one synchronous step); the attack's 18–33 s is ~100× the budget.
 */
const LIVENESS_BUDGET_MS = 250;
const PROBE_SPACING_MS = 20;

describe('data-source checks and liveness', () => {
  let t: TestApp;
  let base: string;
  const root = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `source-checks-${randomUUID()}`);

  beforeAll(async () => {
    mkdirSync(root, { recursive: true });
    t = await TestApp.start({
      settings: { INGEST_FILE_ROOT: root, INGEST_SETTLE_SECONDS: '0', INGEST_INCOMPLETE_AFTER_SECONDS: '0', INGEST_WORKER: 'false' },
    });
    base = await listen(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function addSource(org: TestOrganization, kind: string, dir: string): Promise<string> {
    const response = await t.http
      .post('/v1/admin/sources')
      .set(org.auth)
      .send({ integrationId: 'big', kind, url: `file://${dir}` });
    expect(response.status).toBe(201);
    return response.body.data.sourceId as string;
  }

  /** Runs the check while probing /health/live; the slowest probe and the check's outcomes. */
  async function checkWhileProbing(org: TestOrganization, id: string) {
    let running = true;
    const check = t.http
      .post(`/v1/admin/sources/${id}/run`)
      .set(org.auth)
      .then((response) => response.body as { data: { checks: Array<{ outcome: string; message: string }> } })
      .finally(() => (running = false));
    const probes: number[] = [];
    while (running) {
      const started = performance.now();
      const answer = await send(`${base}/health/live`, {}, 60_000);
      probes.push(performance.now() - started);
      expect(answer.status).toBe(200);
      await new Promise((wait) => setTimeout(wait, PROBE_SPACING_MS));
    }
    const { data } = await check;
    return { slowest: Math.max(...probes), probes: probes.length, outcomes: data.checks.map((c) => c.outcome), checks: data.checks };
  }

  it('answers /health/live within 250 ms while a folder of 30,000 files is checked', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'many');
    for (let folder = 0; folder < 30; folder++) {
      mkdirSync(join(dir, `d${folder}`), { recursive: true });
      for (let file = 0; file < 1_000; file++) writeFileSync(join(dir, `d${folder}`, `part-${file}.csv`), '');
    }
    const result = await checkWhileProbing(org, await addSource(org, 'focus-files', dir));
    console.log(`30,000 files: ${result.probes} probes, slowest ${result.slowest.toFixed(1)} ms`);
    expect(result.outcomes).toEqual(['refused']); // its first part is empty
    expect(result.probes).toBeGreaterThan(1);
    expect(result.slowest).toBeLessThan(LIVENESS_BUDGET_MS);
  }, 300_000);

  it('answers /health/live within 250 ms while a 2 MB manifest naming 50,000 parts is checked', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'manifest');
    const files = Array.from({ length: 50_000 }, (_, i) => `s3://bucket/exports/focus/data/BILLING_PERIOD=2026-10/exec-1/focus-${i}.csv`);
    const manifest = JSON.stringify({ executionId: 'exec-1', exportTime: '2026-11-01T06:00:00Z', dataFiles: files });
    expect(manifest.length).toBeGreaterThan(2_000_000);
    mkdirSync(join(dir, 'focus/metadata/BILLING_PERIOD=2026-10/exec-1'), { recursive: true });
    writeFileSync(join(dir, 'focus/metadata/BILLING_PERIOD=2026-10/exec-1/focus-Manifest.json'), manifest);
    const result = await checkWhileProbing(org, await addSource(org, 'aws-data-exports', dir));
    console.log(`50,000-part manifest: ${result.probes} probes, slowest ${result.slowest.toFixed(1)} ms`);
    expect(result.outcomes).toEqual(['incomplete']);
    expect(result.checks[0].message).toMatch(/is missing; .* and 49990 more$/);
    expect(result.slowest).toBeLessThan(LIVENESS_BUDGET_MS);
  }, 300_000);
});
