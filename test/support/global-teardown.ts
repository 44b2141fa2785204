import { rmSync } from 'node:fs';
import { killPid } from './local-servers';

export default async function globalTeardown(): Promise<void> {
  for (const pid of (process.env.E2E_SERVER_PIDS ?? '').split(',').filter(Boolean)) killPid(Number(pid));
  // E2E_KEEP_TMP=1 keeps the servers' files (cluster nodes write node.log beside their data) for a post-mortem.
  if (process.env.E2E_TMP_DIR && !process.env.E2E_KEEP_TMP) rmSync(process.env.E2E_TMP_DIR, { recursive: true, force: true });
}
