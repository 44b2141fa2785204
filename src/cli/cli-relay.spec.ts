import { parseCommandLine } from './cli-args';
import { withAbsolutePaths } from './cli-relay';
import { StoreCommand } from './command-line';

const ORG = '11111111-1111-4111-8111-111111111111';
const command = (argv: string[]) => parseCommandLine(argv) as StoreCommand;

describe('a relayed command reads its files from the CLI’s folder', () => {
  it('resolves the files of ingest, rates import and cost-categories set against the CLI’s folder', () => {
    expect(withAbsolutePaths(command(['ingest', 'focus', 'a.csv', '/abs/b.csv', '--org', ORG]), '/home/op')).toMatchObject({
      paths: ['/home/op/a.csv', '/abs/b.csv'],
    });
    expect(withAbsolutePaths(command(['rates', 'import', '../r.csv', '--org', ORG]), '/home/op/x')).toMatchObject({
      path: '/home/op/r.csv',
    });
    expect(withAbsolutePaths(command(['cost-categories', 'set', 'Unit', 'unit.json', '--org', ORG]), '/w')).toMatchObject({
      file: '/w/unit.json',
    });
  });

  it('leaves a command without files as it is', () => {
    const list = command(['keys', 'list', '--org', ORG]);
    expect(withAbsolutePaths(list, '/home/op')).toEqual(list);
  });
});
