/**
 * The bench's measuring client: a child process that sends every timed request — the API over HTTP, the same
 * statements directly to ClickHouse, the PostgreSQL equivalents — so the process under test (the API) does
 * nothing but serve, as in production, and both sides of each ratio are timed from the same client process.
 *
 * Parent side: `startMeasuringClient()` forks this file; child side: `serve()` answers its messages.
 */
import { ClickHouseClient } from '@clickhouse/client';
import { ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import type { Pool } from 'pg';
import { loadConfig } from '../../src/config/app-config';
import type { SettingOverrides } from '../../src/config/settings';
import { applyHeapGrowing } from '../../src/config/heap-tuning';
import { createClickhouseClient } from '../../src/store/clickhouse/clickhouse.client-factory';
import type { StatementParameters } from '../../src/store/clickhouse/clickhouse.service';

export interface Statement {
  sql: string;
  params: StatementParameters;
  /** How the API read the result (JSONEachRow: parsed rows; TabSeparatedRaw: kept as bytes). */
  format: 'JSONEachRow' | 'TabSeparatedRaw';
}

/** One timed unit of work; a unit with several statements runs them concurrently, as the API does. */
export type Task =
  | { kind: 'http'; url: string; headers: Record<string, string>; body: string }
  | {
      kind: 'clickhouse';
      statements: Statement[];
      settings: Record<string, string | number>;
      tagQueryIds?: boolean;
      /** Another ClickHouse than the API's (CLICKHOUSE_URL): the cluster bench times two stores. */
      url?: string;
    }
  | { kind: 'postgres'; statements: string[] };

/** What one run of a task saw: answer bytes (http), query ids (clickhouse). */
export interface TaskOutcome {
  bytes: number;
  queryIds: string[];
}

type Request =
  | { op: 'series'; warmup: number; runs: number; tasks: [Task] }
  | { op: 'alternated'; warmup: number; runs: number; tasks: Task[] }
  | { op: 'once'; tasks: [Task] };

export interface Measured {
  /** Durations in ms per task, measured runs only. */
  samples: number[][];
  /** Query ids of the measured runs per task (clickhouse tasks with tagQueryIds). */
  queryIds: string[][];
  last: TaskOutcome[];
}

export interface MeasuringClient {
  series(warmup: number, runs: number, task: Task): Promise<Measured>;
  /**
   * Several ways of answering the same question, measured in alternation (a b c, c b a, a b c, …) rather than
   * one series after the other, so drift in the machine's speed (a shared 2-core host) and order effects weigh
   * on all alike.
   */
  alternated(warmup: number, runs: number, tasks: Task[]): Promise<Measured>;
  once(task: Task): Promise<TaskOutcome>;
  stop(): void;
}

/** Forks the client with the API's settings over the current environment (CLICKHOUSE_* as the API uses them). */
export function startMeasuringClient(settings: SettingOverrides, postgres?: { database: string }): MeasuringClient {
  const child: ChildProcess = fork(__filename, ['--serve'], {
    execArgv: __filename.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [],
    env: { ...process.env, ...settings, BENCH_PG_DATABASE: postgres?.database ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (m: Measured) => void; reject: (e: Error) => void }>();
  child.on('message', (message: { id: number; result?: Measured; error?: string }) => {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(`measuring client: ${message.error}`));
    else pending?.resolve(message.result!);
  });
  child.on('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`measuring client exited (${code})`));
    waiting.clear();
  });
  const send = (request: Request) =>
    new Promise<Measured>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ id, ...request });
    });
  return {
    series: (warmup, runs, task) => send({ op: 'series', warmup, runs, tasks: [task] }),
    alternated: (warmup, runs, tasks) => send({ op: 'alternated', warmup, runs, tasks }),
    once: async (task) => (await send({ op: 'once', tasks: [task] })).last[0],
    stop: () => child.kill(),
  };
}

async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  // The API's process runs with this setting (main.ts): the client runs with it too, so both sides of a ratio alike.
  applyHeapGrowing(config.heapGrowingPercent);
  const clickhouse: ClickHouseClient = createClickhouseClient(config);
  const others = new Map<string, ClickHouseClient>();
  const clientFor = (url?: string): ClickHouseClient => {
    if (url === undefined || url === config.clickhouse.url) return clickhouse;
    let client = others.get(url);
    if (!client) {
      client = createClickhouseClient({ ...config, clickhouse: { ...config.clickhouse, url } });
      others.set(url, client);
    }
    return client;
  };
  let pg: Pool | undefined;
  if (process.env.BENCH_PG_DATABASE) {
    const { Pool } = await import('pg');
    pg = new Pool({ host: '127.0.0.1', user: 'postgres', database: process.env.BENCH_PG_DATABASE, max: 8 });
  }

  const runClickhouse = async (statement: Statement, settings: Record<string, string | number>, queryId?: string, url?: string) => {
    const clickhouse = clientFor(url);
    if (statement.format === 'JSONEachRow') {
      const result = await clickhouse.query({
        query: statement.sql,
        query_params: statement.params,
        format: 'JSONEachRow',
        clickhouse_settings: settings,
        query_id: queryId,
      });
      await result.json();
    } else {
      const result = await clickhouse.exec({
        query: `${statement.sql}\nFORMAT TabSeparatedRaw`,
        query_params: statement.params,
        clickhouse_settings: settings,
        query_id: queryId,
      });
      const chunks: Buffer[] = []; // kept as chunks, as the API keeps them
      for await (const chunk of result.stream) chunks.push(chunk as Buffer);
    }
  };

  // The API is called with Node's http module and a keep-alive agent, as @clickhouse/client calls ClickHouse:
  // both sides of a ratio pay the same client-side HTTP cost.
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  // The answer is kept as the chunks it arrived in, as the direct statements' results are (no extra copy on one side).
  const post = (task: Extract<Task, { kind: 'http' }>) =>
    new Promise<{ status: number; chunks: Buffer[] }>((resolve, reject) => {
      const request = httpRequest(
        task.url,
        { method: 'POST', agent, headers: { ...task.headers, 'Content-Length': Buffer.byteLength(task.body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, chunks }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(task.body);
    });

  const run = async (task: Task): Promise<TaskOutcome> => {
    switch (task.kind) {
      case 'http': {
        // Received as bytes, as the direct statements' results are (what a client then does with the JSON, it
        // would do with either).
        const { status, chunks } = await post(task);
        if (status !== 200) throw new Error(`${task.url} answered ${status}: ${Buffer.concat(chunks).toString('utf8', 0, 300)}`);
        return { bytes: chunks.reduce((total, chunk) => total + chunk.length, 0), queryIds: [] };
      }
      case 'clickhouse': {
        const queryIds = task.tagQueryIds ? task.statements.map(() => randomUUID()) : [];
        await Promise.all(task.statements.map((s, i) => runClickhouse(s, task.settings, queryIds[i], task.url)));
        return { bytes: 0, queryIds };
      }
      case 'postgres': {
        if (!pg) throw new Error('PostgreSQL is not configured for this run');
        await Promise.all(task.statements.map((sql) => pg!.query(sql)));
        return { bytes: 0, queryIds: [] };
      }
    }
  };

  const measure = async (request: Request): Promise<Measured> => {
    const { tasks } = request;
    const samples: number[][] = tasks.map(() => []);
    const queryIds: string[][] = tasks.map(() => []);
    const last: TaskOutcome[] = [];
    const timed = async (i: number) => {
      const began = performance.now();
      last[i] = await run(tasks[i]);
      samples[i].push(performance.now() - began);
      queryIds[i].push(...last[i].queryIds);
    };
    if (request.op === 'once') {
      last[0] = await run(tasks[0]);
      return { samples, queryIds, last };
    }
    for (let w = 0; w < request.warmup; w++) for (const task of tasks) await run(task);
    for (let r = 0; r < request.runs; r++) {
      // Reverse the order of an alternated measurement every run.
      const order = r % 2 === 0 ? tasks.map((_, i) => i) : tasks.map((_, i) => i).reverse();
      for (const i of order) await timed(i);
    }
    return { samples, queryIds, last };
  };

  process.on('message', (message: Request & { id: number }) => {
    measure(message).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) => process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.on('disconnect', () => {
    void pg?.end();
    void clickhouse.close();
    for (const other of others.values()) void other.close();
    process.exit(0);
  });
}

if (process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    process.stderr.write(`measuring client failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
