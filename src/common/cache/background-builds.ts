import { LeastRecentlyUsed } from './least-recently-used';

/** A build found (or written) for one key at one data version, and until when it may be read. */
export interface FoundBuild<T> {
  build: T;
  usableUntil: number;
}

/** Who may write a build across instances (Redis); `claim` answers false while another instance holds it. */
export interface BuildClaims {
  claim(claim: string): Promise<boolean>;
  release(claim: string): Promise<void>;
}

export interface BackgroundBuildsOptions {
  /** Keys whose build state is remembered at once (the least recently used is forgotten first). */
  remembered: number;
  /** A process that found no build looks again after this long (another instance may have written one meanwhile). */
  lookAgainMs: number;
  claims: BuildClaims;
  /** A look or a build that failed (the answer was computed without a build; the next look tries again). */
  onFailure(error: unknown): void;
}

interface BuildState<T> {
  version: string;
  checkedAt: number;
  found?: FoundBuild<T>;
  pending?: Promise<void>;
}

/**
 * Derived data built in the background (converted sums, category sums): an answer reads a complete build of its
 * key's current data version when one is known; otherwise it is answered without one while a build is looked for or
 * written in the background, one look at a time per key, one writer per claim across this process and instances.
 */
export class BackgroundBuilds<T> {
  private readonly states: LeastRecentlyUsed<BuildState<T>>;
  private readonly building = new Set<string>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly options: BackgroundBuildsOptions) {
    this.states = new LeastRecentlyUsed(options.remembered);
  }

  /**
   * The usable build of `key` at `version`, or undefined: then, unless a look is under way or one ended less than
   * lookAgainMs ago, `findOrBuild` runs in the background and what it finds is read from then on.
   */
  ready(key: string, version: string, findOrBuild: () => Promise<FoundBuild<T> | undefined>): T | undefined {
    const known = this.states.get(key);
    const state = known?.version === version ? known : { version, checkedAt: Number.NEGATIVE_INFINITY };
    this.states.set(key, state);
    if (state.found && Date.now() < state.found.usableUntil) return state.found.build;
    if (!state.pending && Date.now() - state.checkedAt >= this.options.lookAgainMs) {
      const pending: Promise<void> = findOrBuild()
        .then((found) => {
          if (found) state.found = found;
        })
        .catch((error: unknown) => this.options.onFailure(error))
        .finally(() => {
          state.pending = undefined;
          state.checkedAt = Date.now();
          this.running.delete(pending);
        });
      state.pending = pending;
      this.running.add(pending);
    }
    return undefined;
  }

  /** Runs `build` unless this process or another instance is already building `claim` (then undefined). */
  async once<B>(claim: string, build: () => Promise<B>): Promise<B | undefined> {
    if (this.building.has(claim) || !(await this.options.claims.claim(claim))) return undefined;
    this.building.add(claim);
    try {
      return await build();
    } finally {
      this.building.delete(claim);
      await this.options.claims.release(claim);
    }
  }

  /** Every look and build under way, finished (or failed): before the connections they use close. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
