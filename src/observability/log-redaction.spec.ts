import { redactSecrets } from './log-redaction';

describe('redactSecrets', () => {
  const key = 'cik_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ0123456789abcdeXyZ123';

  it('removes key material wherever it appears in a log line', () => {
    const line = JSON.stringify({ msg: `lookup failed for ${key}`, req: { url: `/v1/x/${key}?k=${key}` } });
    const redacted = redactSecrets(line);
    expect(redacted).not.toMatch(/cik_[A-Za-z0-9]/);
    expect(redacted.match(/cik_\[redacted\]/g)).toHaveLength(3);
    expect(JSON.parse(redacted).req.url).toBe('/v1/x/cik_[redacted]?k=cik_[redacted]');
  });

  it('removes bearer credentials of any shape, keeping the line valid JSON', () => {
    for (const value of ['Bearer abc.def', 'bearer   token123', 'Bearer%20xyz']) {
      const redacted = redactSecrets(JSON.stringify({ msg: `header was ${value} end` }));
      expect(JSON.parse(redacted).msg).toMatch(/^header was (B|b)earer \[redacted\] end$/);
    }
  });

  it('leaves ordinary lines alone', () => {
    const line = '{"level":30,"msg":"request completed","keyId":"AbCdEfGhIjKl"}';
    expect(redactSecrets(line)).toBe(line);
  });
});
