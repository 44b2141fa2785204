import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseReadChars, watchProcessReadBytes } from './process-read-bytes';

describe('process read bytes', () => {
  it('parses rchar out of /proc/<pid>/io', () => {
    expect(parseReadChars('rchar: 123456\nwchar: 42\nsyscr: 7\n')).toBe(123456);
    expect(parseReadChars('wchar: 42\n')).toBeUndefined();
  });

  const linux = process.platform === 'linux' ? it : it.skip;
  linux('reports the bytes this process reads while it reads them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-bytes-'));
    try {
      const file = join(dir, 'data.bin');
      writeFileSync(file, Buffer.alloc(8 * 1024 * 1024, 1));
      const seen: number[] = [];
      const stop = watchProcessReadBytes((bytes) => seen.push(bytes), 5);
      await readFile(file);
      await new Promise((resolve) => setTimeout(resolve, 30));
      stop();
      const count = seen.length;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(seen.length).toBe(count); // stopped
      expect(Math.max(...seen)).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
