import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { E2E_MODES } from './e2e-mode';
import { declaredModes, suites } from './suite-modes';

const ROOT = resolve(__dirname, '../..');

describe('suite modes', () => {
  it('reads the first line of a suite', () => {
    expect(declaredModes('// modes: embedded server cluster — the store\nimport x;')).toEqual(['embedded', 'server', 'cluster']);
    expect(declaredModes('// modes: embedded — HTTP validation only\n')).toEqual(['embedded']);
    expect(declaredModes('// modes: cluster\n')).toEqual(['cluster']);
    expect(declaredModes('import x;\n// modes: embedded\n')).toEqual(expect.stringContaining('its first line must be'));
    expect(declaredModes('// modes: embedded lan\n')).toBe('unknown mode(s) lan (modes: embedded, server, cluster)');
    expect(declaredModes('// modes: server server\n')).toBe('a mode named twice');
    expect(declaredModes('// modes:\n')).toEqual(expect.stringContaining('its first line must be'));
  });

  it('every e2e and timing suite declares the modes it runs in', () => {
    const undeclared = suites(ROOT)
      .filter(({ modes }) => typeof modes === 'string')
      .map(({ file, modes }) => `${file}: ${String(modes)}`);
    expect(undeclared).toEqual([]);
  });

  it.each(E2E_MODES)('jest runs in %s mode exactly the suites that declare it', (mode) => {
    const listed = execFileSync(process.execPath, [require.resolve('jest/bin/jest'), '--listTests', '--selectProjects', 'e2e', 'timing'], {
      cwd: ROOT,
      env: { ...process.env, E2E_MODE: mode },
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line.endsWith('.ts'))
      .map((path) => relative(ROOT, path))
      .sort();
    const declaring = suites(ROOT)
      .filter(({ modes }) => Array.isArray(modes) && modes.includes(mode))
      .map(({ file }) => file);
    expect(listed).toEqual(declaring);
  });
});
