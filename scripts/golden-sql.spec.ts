import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickhouseFormat, goldenStatements, goldenText, QUERIES_DIR } from './golden-sql';
import { recordedCaseNames, recordedStatements, recordedText, STATEMENT_SOURCES } from './golden-repositories';
import { connectionCall, REPOSITORY_ROOT, srcSourceFiles } from './source-files';

const golden = (name: string) => {
  const path = join(QUERIES_DIR, `${name}.sql`);
  expect(existsSync(path)).toBe(true);
  return readFileSync(path, 'utf8');
};

/** The committed statements (src/queries) are what the code writes now: `npm run queries:golden` after a change to the SQL. */
describe('golden SQL', () => {
  const statements = goldenStatements();

  it.each(Object.keys(statements))('%s.sql is what the kernel writes (run npm run queries:golden after changing the SQL)', (name) => {
    expect(golden(name)).toBe(goldenText(name, statements[name], clickhouseFormat));
  });

  describe('of the repositories', () => {
    let recorded: Awaited<ReturnType<typeof recordedStatements>>;
    beforeAll(async () => {
      recorded = await recordedStatements();
    });

    it.each(recordedCaseNames())('%s.sql is what the method sends (run npm run queries:golden after changing the SQL)', (name) => {
      expect(golden(name)).toBe(recordedText(name, recorded[name], clickhouseFormat));
    });
  });

  it('holds no statement the generators no longer write', () => {
    const files = readdirSync(QUERIES_DIR).filter((file) => file.endsWith('.sql'));
    expect(files.sort()).toEqual([...Object.keys(statements), ...recordedCaseNames()].map((name) => `${name}.sql`).sort());
  });

  it('accounts for every source file that sends statements (STATEMENT_SOURCES in scripts/golden-repositories.ts)', () => {
    const sending = srcSourceFiles().filter((path) => SENDS_STATEMENTS.test(readFileSync(join(REPOSITORY_ROOT, path), 'utf8')));
    expect(sending).toEqual(Object.keys(STATEMENT_SOURCES).sort());
  });
});

/** A call of a ClickhouseService member that sends a statement. */
const SENDS_STATEMENTS = connectionCall(['query', 'queryRaw', 'command', 'longCommand', 'insert', 'insertSelect', 'insertWithBody']);
