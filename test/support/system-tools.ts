import { relative, resolve } from 'node:path';
import { banner, checkSystemTools, findOnPath, systemTool } from '../../scripts/system-tools';

/**
 * Suites that run a system tool (nginx, redis-server, python3, chromium…: scripts/system-tools.table.json) declare it
 * here. With every tool on the PATH the block runs as usual. Without one, outside CI, its tests are skipped
 * loudly: a banner on stderr naming the tool and the command that installs it, and every test reported as
 * skipped (jest's summary counts them) under a name that says why. Under CI (CI=true) the file fails to load with the same message.
 */
type Block = (name: string, body: () => void) => void;
type Test = (name: string, body: jest.ProvidesCallback, timeout?: number) => void;

const ROOT = resolve(__dirname, '../..');

/** Decides for the calling test file; returns the reason to skip, or undefined to run. Throws under CI. */
function skipReason(tools: readonly string[], name: string): string | undefined {
  const testPath = expect.getState().testPath;
  const where = testPath ? ` (${relative(ROOT, testPath)})` : '';
  const verdict = checkSystemTools(tools, `"${name}"${where}`);
  if (verdict.outcome === 'run') return undefined;
  if (verdict.outcome === 'fail') throw new Error(banner(verdict.message));
  // Straight to stderr: jest shows no console output of a file whose tests are all skipped.
  process.stderr.write(`${banner(verdict.message)}\n`);
  return `SKIPPED, ${verdict.missing.map((tool) => tool.command).join(' and ')} not installed`;
}

/** `describe` that runs only when every tool of `tools` is on the PATH (see above). */
export function describeWithTools(tools: readonly string[]): Block {
  return (name, body) => {
    const reason = skipReason(tools, name);
    if (reason === undefined) describe(name, body);
    else describe.skip(`${name} [${reason}]`, body);
  };
}

/** `it` that runs only when every tool of `tools` is on the PATH (see above). */
export function itWithTools(tools: readonly string[]): Test {
  return (name, body, timeout) => {
    const reason = skipReason(tools, name);
    if (reason === undefined) it(name, body, timeout);
    else it.skip(`${name} [${reason}]`, body);
  };
}

/** The absolute path of a tool of the table (e.g. chromium's executable for a browser test), inside a block of describeWithTools. */
export function systemToolPath(name: string): string {
  const path = findOnPath(systemTool(name).command, process.env.PATH);
  if (!path) throw new Error(`${name} is not on the PATH: declare it with describeWithTools(['${name}'])`);
  return path;
}
