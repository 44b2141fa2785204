import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickhouseFormat, goldenStatements, goldenText, QUERIES_DIR } from './golden-sql';

/** The committed statements (src/queries) are what the kernel writes now: `npm run queries:golden` after a change to the SQL. */
describe('golden SQL', () => {
  const statements = goldenStatements();

  it.each(Object.keys(statements))('%s.sql is what the kernel writes (run npm run queries:golden after changing the SQL)', (name) => {
    const path = join(QUERIES_DIR, `${name}.sql`);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(goldenText(name, statements[name], clickhouseFormat));
  });

  it('holds no statement the generator no longer writes', () => {
    const files = readdirSync(QUERIES_DIR).filter((file) => file.endsWith('.sql'));
    expect(files.sort()).toEqual(
      Object.keys(statements)
        .map((name) => `${name}.sql`)
        .sort(),
    );
  });
});
