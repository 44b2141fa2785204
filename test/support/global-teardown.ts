import { rmSync } from 'node:fs';
import { killPid } from './local-servers';

export default async function globalTeardown(): Promise<void> {
  for (const pid of (process.env.E2E_SERVER_PIDS ?? '').split(',').filter(Boolean)) killPid(Number(pid));
  if (process.env.E2E_TMP_DIR) rmSync(process.env.E2E_TMP_DIR, { recursive: true, force: true });
}
