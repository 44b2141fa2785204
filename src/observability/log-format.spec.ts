import pino from 'pino';
import { decodeRepeatedly, keySpellings } from '../../test/support/key-spellings';
import { chooseLogFormat, LogFormat, logDestination } from './log-format';

const key = 'cik_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ0123456789abcdeXyZ123';
const secret = key.slice(17);
// eslint-disable-next-line no-control-regex
const stripColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** What a pino logger writes through logDestination(format), as text. */
function logged(format: LogFormat, log: (logger: pino.Logger) => void): string {
  const written: string[] = [];
  const logger = pino({ level: 'trace' }, logDestination(format, { write: (text) => written.push(text) }));
  log(logger);
  return stripColours(written.join(''));
}

describe('chooseLogFormat', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT chooses', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('json', false)).toBe('json');
    expect(chooseLogFormat('pretty', true)).toBe('pretty');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('logDestination', () => {
  const request = {
    req: { id: 'req-1', method: 'POST', url: '/v1/cost-insights/data', remoteAddress: '127.0.0.1' },
    res: { statusCode: 200 },
    responseTime: 12,
    keyId: 'AbCdEfGhIjKl',
  };

  it('json: one JSON line per event, as pino wrote it', () => {
    const text = logged('json', (logger) => logger.info(request, 'request completed'));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: 'request completed', ...request });
  });

  it('pretty: one readable line per event: time, level, context or request, then the other fields', () => {
    const text = logged('pretty', (logger) => {
      logger.info(request, 'request completed');
      logger.warn({ context: 'Startup' }, 'Applied migrations: 0001_init');
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: POST \/v1\/cost-insights\/data 200 in 12 ms \(request req-1\) \{"keyId":"AbCdEfGhIjKl"\}$/,
    );
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[Startup\] Applied migrations: 0001_init$/);
    expect(() => JSON.parse(lines[0])).toThrow();
  });

  it('pretty: an error keeps its message and stack', () => {
    const text = logged('pretty', (logger) => logger.error({ err: new Error('ClickHouse is away') }, 'request errored'));
    expect(text).toMatch(/ERROR: request errored/);
    expect(text).toContain('"message": "ClickHouse is away"');
    expect(text).toContain('at ');
  });

  for (const format of ['json', 'pretty'] as const) {
    it(`${format}: no key material or bearer value survives, in any spelling, wherever it is in the line`, () => {
      for (const [spelling, encoded] of Object.entries(keySpellings(key))) {
        const text = logged(format, (logger) => {
          logger.info(
            { req: { id: 'r', method: 'GET', url: `/v1/nowhere/${encoded}` }, res: { statusCode: 404 }, responseTime: 1 },
            'request completed',
          );
          logger.warn({ context: 'Auth', detail: { header: `Bearer ${encoded}`, list: [encoded] } }, `lookup failed for ${encoded}`);
          logger.error({ err: new Error(`bad key ${encoded}`) }, 'failed');
        });
        expect({ spelling, leaked: decodeRepeatedly(text).includes(secret.slice(0, 8)) }).toEqual({ spelling, leaked: false });
        expect(text).toContain('cik_[redacted]');
      }
      const bearer = logged(format, (logger) => logger.info(`header was Bearer opaque-credential-0123456789 end`));
      expect(bearer).not.toContain('opaque-credential');
      expect(bearer).toContain('Bearer [redacted]');
    });
  }
});
