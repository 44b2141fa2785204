/**
 * The application as `npm run build` compiles it (`dist/`, what `npm start`, the CLI and the MCP relay run), for the
 * suites that start the built server, CLI or relay: built once per run (by `npm test` and by each jest project's global
 * setup when stale) with the same freshness rule as `npm start` (scripts/built-dist.js); no suite compiles privately.
 */
export { BUILT, ensureBuilt } from '../../scripts/built-dist';
