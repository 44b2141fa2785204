import { readFileSync } from 'node:fs';
import { srcSourceFiles } from './source-files';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * No two files of src/ import each other, directly or round a loop (type-only imports too: a circle of types is still a
 * circle to a reader). The folder layering (eslint.config.mjs) keeps arrows pointing down between folders; this keeps
 * them from looping inside one. A failure names each circle, file by file.
 */
const ROOT = resolve(__dirname, '..');
const IMPORT = /^\s*(?:import|export)\s[^'"`]*?from\s+'(\.{1,2}\/[^']+)'/gm;

function sourceFiles(): string[] {
  return srcSourceFiles().map((file) => join(ROOT, file));
}

/** The files of src/ that `file` imports by a relative path. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => resolve(dirname(file), match[1]));
  return targets.flatMap((target) => [`${target}.ts`, join(target, 'index.ts')].filter((candidate) => known.has(candidate)).slice(0, 1));
}

/** Strongly connected components of more than one file (Tarjan), each as paths relative to the repository. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1) found.push(component.map((member) => relative(ROOT, member)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('src/ has no import circles', () => {
  it('finds a circle where there is one (the check itself)', () => {
    const graph = new Map([
      [join(ROOT, 'a.ts'), [join(ROOT, 'b.ts')]],
      [join(ROOT, 'b.ts'), [join(ROOT, 'c.ts')]],
      [join(ROOT, 'c.ts'), [join(ROOT, 'a.ts')]],
      [join(ROOT, 'd.ts'), [join(ROOT, 'a.ts')]],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has none among its files', () => {
    const files = sourceFiles();
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    expect([...graph.values()].flat().length).toBeGreaterThan(500); // the imports were read
    expect(circles(graph)).toEqual([]);
  });
});
