/**
 * Last line of defence for logs: whatever a log line contains (message, error, serialized request),
 * API key material (`cik_…`) and bearer credentials are replaced before the line is written.
 * Request serializers already log no headers; this catches keys that reach a message by accident.
 */
const KEY_MATERIAL = /cik_[A-Za-z0-9_]+/g;
const BEARER_VALUE = /(Bearer)(\s|%20|\\u0020)+[^\s"'\\,;]+/gi;

export function redactSecrets(text: string): string {
  return text.replace(KEY_MATERIAL, 'cik_[redacted]').replace(BEARER_VALUE, '$1 [redacted]');
}

/** A pino destination that redacts each line, then writes it to stdout. */
export function redactingStdout(): { write(line: string): void } {
  return { write: (line: string) => void process.stdout.write(redactSecrets(line)) };
}
