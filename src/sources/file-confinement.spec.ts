import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confiningFolder, isInsideFolder, OutsideFolder, realPathInside } from './file-confinement';

describe('isInsideFolder', () => {
  it.each([
    ['/srv/exports/org', '/srv/exports/org', true],
    ['/srv/exports/org/aws', '/srv/exports/org', true],
    ['/srv/exports/org/..data', '/srv/exports/org', true],
    ['/srv/exports/org-b', '/srv/exports/org', false],
    ['/srv/exports', '/srv/exports/org', false],
    ['/etc', '/srv/exports/org', false],
  ])('%s in %s: %s', (path, folder, inside) => {
    expect(isInsideFolder(path, folder)).toBe(inside);
  });
});

describe('confiningFolder', () => {
  it("is the organisation's folder under the root, whoever added the source; the source's own folder outside it", () => {
    expect(confiningFolder('/srv/exports/org-a/aws', 'org-a', '/srv/exports/')).toBe('/srv/exports/org-a');
    expect(confiningFolder('/srv/exports/org-b/aws', 'org-a', '/srv/exports')).toBe('/srv/exports/org-a');
    expect(confiningFolder('/srv/exports', 'org-a', '/srv/exports')).toBe('/srv/exports/org-a');
    expect(confiningFolder('/mnt/operator/aws', 'org-a', '/srv/exports')).toBe('/mnt/operator/aws');
    expect(confiningFolder('/srv/exports/org-a', 'org-a', '')).toBe('/srv/exports/org-a');
  });
});

describe('realPathInside', () => {
  let base: string;
  let mine: string;
  let theirs: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'confinement-'));
    [mine, theirs] = [join(base, 'org-a'), join(base, 'org-b')];
    mkdirSync(join(mine, 'aws', 'deep'), { recursive: true });
    mkdirSync(join(theirs, 'aws'), { recursive: true });
    symlinkSync(join(theirs, 'aws'), join(mine, 'to-theirs'));
    symlinkSync('aws/deep', join(mine, 'to-own'));
    symlinkSync('../org-b/missing', join(mine, 'to-missing-outside'));
    symlinkSync('aws/missing', join(mine, 'to-missing-inside'));
    symlinkSync('deep/../../to-theirs', join(mine, 'aws', 'climbing'));
    symlinkSync('loop-b', join(mine, 'loop-a'));
    symlinkSync('loop-a', join(mine, 'loop-b'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('answers the real path of a folder inside, links within it followed', async () => {
    await expect(realPathInside(join(mine, 'aws'), mine)).resolves.toBe(join(mine, 'aws'));
    await expect(realPathInside(join(mine, 'to-own'), mine)).resolves.toBe(join(mine, 'aws', 'deep'));
  });

  it('refuses a link outside alike whether its target exists or not, and a chain that climbs out', async () => {
    await expect(realPathInside(join(mine, 'to-theirs'), mine)).rejects.toBeInstanceOf(OutsideFolder);
    await expect(realPathInside(join(mine, 'to-missing-outside'), mine)).rejects.toBeInstanceOf(OutsideFolder);
    await expect(realPathInside(join(mine, 'to-missing-outside', 'deeper'), mine)).rejects.toBeInstanceOf(OutsideFolder);
    await expect(realPathInside(join(mine, 'aws', 'climbing'), mine)).rejects.toBeInstanceOf(OutsideFolder);
    await expect(realPathInside(theirs, mine)).rejects.toBeInstanceOf(OutsideFolder);
  });

  it('says a missing place inside does not exist, and refuses a loop of links', async () => {
    await expect(realPathInside(join(mine, 'to-missing-inside'), mine)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(realPathInside(join(mine, 'none'), mine)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(realPathInside(join(mine, 'loop-a'), mine)).rejects.toMatchObject({ code: 'ELOOP' });
  });
});
