import { join, resolve } from 'node:path';
import { E2E_MODES } from './e2e-mode';
import { readSuiteDurations } from './suite-durations';
import { declaredModes, suites } from './suite-modes';

const ROOT = resolve(__dirname, '../..');

interface ProjectConfig {
  testMatch: string[];
  testPathIgnorePatterns: string[];
}

/** jest.config.js evaluated afresh with E2E_MODE set to `mode`. */
function loadConfigIn(mode: string): { projects: ProjectConfig[] } {
  const before = process.env.E2E_MODE;
  process.env.E2E_MODE = mode;
  try {
    let config: { projects: Array<Partial<ProjectConfig>> } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest's own configuration, evaluated as jest evaluates it
      config = require(join(ROOT, 'jest.config.js')) as typeof config;
    });
    return {
      projects: config!.projects
        .filter((p) => p.testPathIgnorePatterns)
        .map((p) => ({ testMatch: p.testMatch!, testPathIgnorePatterns: p.testPathIgnorePatterns! })),
    };
  } finally {
    if (before === undefined) delete process.env.E2E_MODE;
    else process.env.E2E_MODE = before;
  }
}

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

  it.each(E2E_MODES)("jest's configuration runs in %s mode exactly the suites that declare it", (mode) => {
    // jest.config.js as jest reads it in that mode: its projects' ignore patterns, applied as jest applies them.
    const config = loadConfigIn(mode);
    const running = suites(ROOT)
      .filter(({ file }) => {
        const project = config.projects.find((p) =>
          p.testMatch.some((glob) => file.startsWith(glob.replace('<rootDir>/', '').split('*')[0])),
        )!;
        const ignored = project.testPathIgnorePatterns.map((pattern) => new RegExp(pattern.replace('<rootDir>', ROOT)));
        return !ignored.some((pattern) => pattern.test(join(ROOT, file)));
      })
      .map(({ file }) => file);
    const declaring = suites(ROOT)
      .filter(({ modes }) => Array.isArray(modes) && modes.includes(mode))
      .map(({ file }) => file);
    expect(running).toEqual(declaring);
  });

  it.each(E2E_MODES)('the committed suite times of %s mode name only suites that run in it', (mode) => {
    // A suite renamed or moved out of the mode leaves a stale time: refresh them (test/support/suite-durations.ts).
    const inMode = new Set(suites(ROOT).flatMap(({ file, modes }) => (Array.isArray(modes) && modes.includes(mode) ? [file] : [])));
    const stale = Object.keys(readSuiteDurations()[mode] ?? {}).filter((file) => !inMode.has(file));
    expect(stale).toEqual([]);
  });
});
