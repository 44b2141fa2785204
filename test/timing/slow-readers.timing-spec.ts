// modes: embedded — slow HTTP readers
import { randomUUID } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AnswerDelivery } from '../../src/answers/answer-delivery';
import { listen, send, startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Clients that ask for a large answer and never read it (issue 24: 60 such sockets held 337 MB for over
 * a minute, with no send timeout). Now an answer goes out in chunks with backpressure, a response that
 * makes no progress for RESPONSE_SEND_TIMEOUT_SECONDS is dropped with its connection, and an
 * organisation whose answers still being sent hold MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION gets 429
 * instead of more. The app runs in this process, so its memory is this process's.
 */
const SEND_TIMEOUT_SECONDS = 20; // far longer than computing a few answers takes: none is dropped before the checks
const UNSENT_BUDGET_MB = 40;
const STALLED_SOCKETS = 20;
const SERVICES = 1500; // × 30 days: 45,000 items of ~300 bytes, a ~13.5 MB answer
const DATA = '/v1/cost-insights/data';

describe('slow readers', () => {
  let t: TestApp;
  let base: string;
  let reader: TestOrganization;
  let other: TestOrganization;
  const gc = (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();
  const memory = () => {
    gc();
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  };

  beforeAll(async () => {
    t = await startAppWithEnv({
      RESPONSE_SEND_TIMEOUT_SECONDS: String(SEND_TIMEOUT_SECONDS),
      MAX_UNSENT_ANSWER_MB_PER_ORGANIZATION: String(UNSENT_BUDGET_MB),
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    base = await listen(t);
    reader = await t.newOrganization();
    other = await t.newOrganization();
    await t.clickhouse.command(
      `INSERT INTO ${t.clickhouse.table('cost_line_items')} (organization_id, usage_date, billing_period, service, amortized_cost)
       SELECT {org:UUID}, toDate('2026-10-01') + intDiv(number, {services:UInt32}), '2026-10', concat('svc-', toString(number % {services:UInt32})), toDecimal128(number % 97, 10) / 7
       FROM numbers({rows:UInt64})`,
      { org: reader.organizationId, services: SERVICES, rows: SERVICES * 30 },
    );
    await t.insertRows(other.organizationId, [{ usage_date: '2026-10-01', amortized_cost: '2.5' }]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh body each time (a random exclusion), so every answer is computed and held on its own. */
  const bigQuestion = () =>
    JSON.stringify({
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-30' } }, exclusions: { services: [randomUUID()] } },
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
    });

  /** Sends the request on a raw socket that never reads a byte of the answer. */
  function stalledRequest(): Socket {
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    const body = bigQuestion();
    socket.write(
      `POST ${DATA} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${reader.auth.Authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return socket;
  }

  /** 429s answered on /data so far, from the Prometheus counter. */
  async function refusedSoFar(): Promise<number> {
    const text = (await send(`${base}/metrics`, {})).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('cost_insights_http_requests_total{') && l.includes(`route="${DATA}"`) && l.includes('status="429"'));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  const connections = () =>
    new Promise<number>((resolve, reject) =>
      t.app.getHttpServer().getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  it('bounds what unread answers hold, refuses the organisation more meanwhile, and drops stalled connections', async () => {
    const answer = await send(
      `${base}${DATA}`,
      { method: 'POST', headers: { ...reader.auth, 'Content-Type': 'application/json' }, body: bigQuestion() },
      60_000,
    );
    expect(answer.status).toBe(200);
    const answerBytes = Buffer.byteLength(answer.text);
    expect(answerBytes).toBeGreaterThan(10_000_000);

    const before = memory();
    const sockets = Array.from({ length: STALLED_SOCKETS }, stalledRequest);
    const delivery = t.app.get(AnswerDelivery);
    // Once the organisation's unread answers leave no room for another, its next request is refused.
    await waitFor(async () => delivery.load.bytes + answerBytes > UNSENT_BUDGET_MB * 1024 * 1024, 90_000);
    const refused = await send(`${base}${DATA}`, {
      method: 'POST',
      headers: { ...reader.auth, 'Content-Type': 'application/json' },
      body: bigQuestion(),
    });
    const otherAnswer = await send(`${base}${DATA}`, {
      method: 'POST',
      headers: { ...other.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-01' } } },
        groupBy: { dateGrouping: 'daily' },
      }),
    });
    // Each stalled request is refused (429, a small answer that completes), being delivered, or already dropped.
    const settled = async () => (await refusedSoFar()) + delivery.load.answers + delivery.load.dropped;
    await waitFor(async () => (await settled()) >= STALLED_SOCKETS + 1, 90_000);
    const held = memory() - before;
    const open = await connections();

    const stalledAt = Date.now();
    // Every answer started before this point, so each is dropped within the send timeout (plus slack), or this throws.
    // Waiting on the answers too: one connection may stay open, a stalled one whose answer started last as well as a
    // keep-alive one of `send`.
    await waitFor(
      async () => delivery.load.answers + delivery.load.bytes === 0 && (await connections()) <= 1,
      (SEND_TIMEOUT_SECONDS + 10) * 1000,
    );
    const droppedAfterMs = Date.now() - stalledAt;
    const loadAfterDrop = delivery.load;
    const afterTimeout = memory() - before;
    const again = await send(
      `${base}${DATA}`,
      { method: 'POST', headers: { ...reader.auth, 'Content-Type': 'application/json' }, body: bigQuestion() },
      60_000,
    );
    for (const socket of sockets) socket.destroy();

    console.log(
      `slow-readers[${process.env.E2E_MODE}]: ${STALLED_SOCKETS} unread ${(answerBytes / 1e6).toFixed(1)} MB answers held ${(held / 1e6).toFixed(1)} MB ` +
        `(budget ${UNSENT_BUDGET_MB} MiB), ${open} connections open; dropped ${droppedAfterMs} ms later, then ${(afterTimeout / 1e6).toFixed(1)} MB held`,
    );
    // Held: at most the budget plus the one answer that may always be sent, not 20 answers.
    expect(held).toBeLessThan(UNSENT_BUDGET_MB * 1024 * 1024 + 2 * answerBytes);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.text).error.message).toMatch(
      /^Rate limit exceeded: .+ still being delivered .+ Please retry after \d+ seconds\.$/,
    );
    expect(otherAnswer.status).toBe(200);
    expect(JSON.parse(otherAnswer.text).data.summary.total_amortized_cost).toBe(2.5);
    expect(open).toBeGreaterThan(1);
    // Nothing of the dropped answers is counted any more, and their memory went back (GC-measured, so compared, not exact).
    expect(loadAfterDrop).toMatchObject({ answers: 0, bytes: 0 });
    expect(afterTimeout).toBeLessThan(held);
    expect(again.status).toBe(200);
  }, 180_000);

  it('counts nothing for a client that left before its answer was computed', async () => {
    const delivery = t.app.get(AnswerDelivery);
    const socket = stalledRequest();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy(); // gone while ClickHouse is still computing its 13.5 MB answer
    const computed = await send(
      `${base}${DATA}`,
      { method: 'POST', headers: { ...reader.auth, 'Content-Type': 'application/json' }, body: bigQuestion() },
      60_000,
    );
    expect(computed.status).toBe(200); // queued behind the abandoned one, so that one has been answered by now
    await waitFor(async () => delivery.load.answers === 0, 10_000);
    expect(delivery.load).toEqual({ answers: 0, bytes: 0, dropped: delivery.load.dropped });
  }, 120_000);
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
