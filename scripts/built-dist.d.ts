/** scripts/built-dist.js: `dist/`, built when stale. */
export declare const BUILT: { dist: string; server: string; cli: string; mcpStdio: string };
export declare function ensureBuilt(say?: (message: string) => void): void;
