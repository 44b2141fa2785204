import { prettyFactory } from 'pino-pretty';
import type { LogFormatSetting } from '../config/settings';
import { redactSecrets } from './log-redaction';

/** How log lines are written: JSON lines (machines: production, pipes, files), or readable lines (a person at a terminal). */
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT applied to the process's stdout: `auto` is readable on a terminal and JSON everywhere else. */
export function chooseLogFormat(setting: LogFormatSetting, stdoutIsTerminal: boolean): LogFormat {
  switch (setting) {
    case 'json':
    case 'pretty':
      return setting;
    case 'auto':
      return stdoutIsTerminal ? 'pretty' : 'json';
  }
}

/** Where the text goes (process.stdout; a test's collector). */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * A pino destination: every line is redacted (log-redaction.ts) before it is written, in either format. A readable
 * line is made from the redacted JSON line and redacted once more: prettifying unescapes strings, and what it
 * prints must pass the same filter. Colours when the terminal takes them (pino-pretty's default; NO_COLOR).
 */
export function logDestination(format: LogFormat, sink: TextSink = process.stdout): { write(line: string): void } {
  if (format === 'json') return { write: (line) => void sink.write(redactSecrets(line)) };
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    // Folded into the message below; the rest (keyId, organizationId, err…) follows it.
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: readableMessage,
  });
  return { write: (line) => void sink.write(redactSecrets(prettify(redactSecrets(line)))) };
}

interface LogLine {
  context?: string;
  req?: { id?: string; method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [key: string]: unknown;
}

/** `[Startup] Applied migrations…`; a request as `POST /v1/cost-insights/data 200 in 12 ms (request <id>)`. */
function readableMessage(log: LogLine, messageKey: string): string {
  const parts: string[] = [];
  if (log.context) parts.push(`[${log.context}]`);
  const message = log[messageKey];
  if (log.req && log.res) {
    parts.push(`${log.req.method} ${log.req.url} ${log.res.statusCode} in ${log.responseTime} ms (request ${log.req.id})`);
    if (message !== 'request completed' && message !== undefined) parts.push(String(message));
  } else if (message !== undefined) {
    parts.push(typeof message === 'string' ? message : JSON.stringify(message));
  }
  return parts.join(' ');
}
