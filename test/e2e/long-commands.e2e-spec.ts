// modes: server cluster — the server's progress headers (the embedded engine has no socket)
import { randomBytes } from 'node:crypto';
import { TestApp } from '../support/test-app';
import { generatedTableName } from '../../src/store/schema/store-tables';

/**
 * A statement that runs longer than the client's request timeout without a byte to send (the activated keys'
 * partition copy, a converted-sums build) is seen through by ClickhouseService.longCommand, which asks the server
 * for progress headers, where a plain command gives up. Server and cluster modes: the embedded engine has no socket.
 */

describe('long commands: silent statements longer than the request timeout', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A 1 s statement budget: the client's request timeout is 6 s (the budget and the client's 5 s margin).
    t = await TestApp.start({ settings: { CLICKHOUSE_MAX_EXECUTION_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An INSERT … SELECT that takes 8 s (16 one-row blocks, 0.5 s each) and answers nothing until it is done. */
  async function silentInsert(): Promise<{ table: string; statement: string }> {
    const table = t.clickhouse.table(generatedTableName(`long_command_${randomBytes(4).toString('hex')}`));
    await t.clickhouse.command(`CREATE TABLE ${table} (n UInt64) ENGINE = MergeTree ORDER BY n`);
    const statement = `INSERT INTO ${table} SELECT number FROM numbers(16) WHERE sleepEachRow(0.5) = 0
                       SETTINGS max_execution_time = 0, max_block_size = 1`;
    return { table, statement };
  }

  it('a plain command gives up at the request timeout; a long command waits for the whole statement', async () => {
    const plain = await silentInsert();
    await expect(t.clickhouse.command(plain.statement)).rejects.toThrow(/timeout/i);

    const long = await silentInsert();
    await t.clickhouse.longCommand(long.statement);
    const [row] = await t.clickhouse.query<{ rows: string; total: string }>(
      `SELECT toString(count()) AS rows, toString(sum(n)) AS total FROM ${long.table}`,
    );
    expect(row).toEqual({ rows: '16', total: String((15 * 16) / 2) });

    for (const { table } of [plain, long]) await t.clickhouse.command(`DROP TABLE IF EXISTS ${table} SYNC`);
  }, 60_000);
});
