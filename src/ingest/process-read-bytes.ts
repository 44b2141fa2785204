import { readFileSync } from 'node:fs';

/** `rchar` of /proc/<pid>/io: bytes this process has read through read()/pread() so far (Linux only). */
export function parseReadChars(procIo: string): number | undefined {
  const match = /^rchar:\s*(\d+)$/m.exec(procIo);
  return match ? Number(match[1]) : undefined;
}

function readCharsNow(): number | undefined {
  try {
    return parseReadChars(readFileSync('/proc/self/io', 'utf8'));
  } catch {
    return undefined; // not Linux, or /proc not mounted
  }
}

/**
 * Live progress of a file the embedded engine reads inside this process (the chDB query leaves the
 * event loop free, but reports nothing until it ends): every `intervalMs`, reports how many bytes the
 * process has read since the call. Returns the stop function; without /proc it reports nothing.
 */
export function watchProcessReadBytes(onRead: (bytes: number) => void, intervalMs = 250): () => void {
  const start = readCharsNow();
  if (start === undefined) return () => undefined;
  const timer = setInterval(() => {
    const now = readCharsNow();
    if (now !== undefined) onRead(now - start);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
