import { decodeRepeatedly, keySpellings, percentEncode } from '../../test/support/key-spellings';
import { loggableUrl, redactSecrets } from './log-redaction';

describe('redactSecrets', () => {
  const key = 'cik_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ0123456789abcdeXyZ123';
  const secret = key.slice(17);

  it('removes key material wherever it appears in a log line', () => {
    const line = JSON.stringify({ msg: `lookup failed for ${key}`, req: { url: `/v1/x/${key}?k=${key}` } });
    const redacted = redactSecrets(line);
    expect(redacted).not.toMatch(/cik_[A-Za-z0-9]/);
    expect(redacted.match(/cik_\[redacted\]/g)).toHaveLength(3);
    expect(JSON.parse(redacted).req.url).toBe('/v1/x/cik_[redacted]?k=cik_[redacted]');
  });

  for (const [spelling, encoded] of Object.entries(keySpellings(key))) {
    it(`removes a key spelled with ${spelling}, keeping the line valid JSON`, () => {
      const line = JSON.stringify({ msg: `request for /v1/x?api_key=${encoded}&page=2`, req: { url: `/v1/nowhere/${encoded}` } });
      const redacted = redactSecrets(line);
      const entry = JSON.parse(redacted);
      expect(entry.msg).toBe('request for /v1/x?api_key=cik_[redacted]&page=2');
      expect(entry.req.url).toBe('/v1/nowhere/cik_[redacted]');
      // Nothing of the secret survives, in any spelling.
      expect(decodeRepeatedly(redacted)).not.toContain(secret.slice(0, 8));
    });
  }

  it('removes bearer credentials of any shape, keeping the line valid JSON', () => {
    const spellings = [
      'Bearer abc.def',
      'bearer   token123',
      'Bearer%20xyz',
      'Bearer%2520xyz',
      'Bearer+xyz',
      'Bearer%09xyz',
      'Bearer\\u0020xyz',
      '%42earer%20xyz',
      `Bearer%20${percentEncode(key, (c) => c === '_')}`,
    ];
    for (const value of spellings) {
      const redacted = redactSecrets(JSON.stringify({ msg: `header was ${value} end` }));
      expect(JSON.parse(redacted).msg).toMatch(/^header was (B|b|%42)earer \[redacted\] end$/);
    }
  });

  it('leaves ordinary lines alone', () => {
    for (const line of [
      '{"level":30,"msg":"request completed","keyId":"AbCdEfGhIjKl"}',
      '{"msg":"GET /v1/cost-insights/data?[redacted]","note":"a cik is a deer; Bearer-less text; 100%25 done"}',
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });
});

describe('loggableUrl', () => {
  it('keeps the path and replaces a query string or fragment by a marker', () => {
    expect(loggableUrl('/v1/cost-insights/data')).toBe('/v1/cost-insights/data');
    expect(loggableUrl('/v1/cost-insights/data?api_key=cik%5Fabc')).toBe('/v1/cost-insights/data?[redacted]');
    expect(loggableUrl('/v1/cost-insights/data?')).toBe('/v1/cost-insights/data?[redacted]');
    expect(loggableUrl('/metrics#cik_x')).toBe('/metrics#[redacted]');
  });
});
