import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetColumnNames } from './parquet-columns';

const FIXTURE = resolve(__dirname, '../../test/fixtures/parquet/typed-columns.parquet');

describe('parquetColumnNames', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'parquet-columns-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the columns from the footer, nested columns' parts included (the fixture's README lists them)", async () => {
    expect(await parquetColumnNames(FIXTURE)).toEqual([
      'ContractId',
      'ContractCommitmentId',
      'ContractCommitmentCategory',
      'ContractCommitmentCost',
      'ContractCommitmentPeriodStart',
      'x_Tags',
      'key_value',
      'key',
      'value',
      'x_List',
      'list',
      'element',
      'x_Flag',
      'x_Double',
    ]);
  });

  it('refuses a file without the closing magic, and one whose footer is cut short', async () => {
    const bytes = readFileSync(FIXTURE);
    const noMagic = join(dir, 'no-magic.parquet');
    writeFileSync(noMagic, bytes.subarray(0, bytes.length - 1));
    await expect(parquetColumnNames(noMagic)).rejects.toThrow('not a Parquet file (no PAR1 at its end)');
    // The footer's length says 40 bytes: the footer read is only its last 40, a struct cut in the middle.
    const cut = Buffer.from(bytes);
    cut.writeUInt32LE(40, cut.length - 8);
    const truncated = join(dir, 'truncated.parquet');
    writeFileSync(truncated, cut);
    await expect(parquetColumnNames(truncated)).rejects.toThrow(/Parquet footer|Thrift/);
  });
});
