import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's root. */
export const REPOSITORY_ROOT = resolve(__dirname, '..');

/** The code of src/ (not its specs or declarations), as paths relative to the repository: what the house's checks read. */
export function srcSourceFiles(): string[] {
  return readdirSync(join(REPOSITORY_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
    .map((file) => join('src', file))
    .sort();
}

/**
 * A call of one of the connection's `members` (ClickhouseService: query, command, insert…) on whatever the connection
 * is named, with or without a type argument; not commander's `program.command`/`parent.command`.
 */
export function connectionCall(members: readonly string[]): RegExp {
  return new RegExp(`(?<!\\b(program|parent))\\.(${members.join('|')})(<[^>()]*(\\([^)]*\\))?[^>()]*>)?\\(`);
}
