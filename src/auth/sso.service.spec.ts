import { isLive, OUTSIDE_TEXT_MAX_CHARACTERS, PROVIDER_ERROR_CODES, providerRefusal } from './sso.service';

describe('isLive (a signed-in session)', () => {
  const signedIn = 1_000_000;
  const session = { activeAtMs: signedIn, endsAtMs: signedIn + 12 * 3_600_000 };
  const idle = 30 * 60;

  it('ends after the idle time without a request, to the millisecond', () => {
    expect(isLive(session, signedIn + idle * 1000 - 1, idle)).toBe(true);
    expect(isLive(session, signedIn + idle * 1000, idle)).toBe(false);
  });

  it('ends at its absolute end however active', () => {
    const active = { ...session, activeAtMs: session.endsAtMs - 1 };
    expect(isLive(active, session.endsAtMs - 1, idle)).toBe(true);
    expect(isLive(active, session.endsAtMs, idle)).toBe(false);
  });
});

describe("providerRefusal (a provider's refusal as recorded)", () => {
  it('keeps every OAuth 2.0 / OpenID Connect error code as given, and its description', () => {
    for (const code of PROVIDER_ERROR_CODES) {
      expect(providerRefusal(code, 'End-User authentication is required')).toEqual({
        error: code,
        errorDescription: 'End-User authentication is required',
      });
    }
  });

  it('records any other error as unknown_error, whatever it holds', () => {
    for (const error of ['access_denied\r\n', 'ACCESS_DENIED', '=HYPERLINK("x")', '', ['access_denied'], undefined]) {
      expect(providerRefusal(error, undefined)).toEqual({ error: 'unknown_error' });
    }
  });

  it('removes control, bidirectional and zero-width characters from the description and cuts it to 200 characters', () => {
    expect(providerRefusal('access_denied', 'a\r\nb\tc\u0000d\u202ee\u200bf\u2028g\u0085h')).toEqual({
      error: 'access_denied',
      errorDescription: 'abcdefgh',
    });
    const long = providerRefusal('access_denied', '\u{1F600}'.repeat(300)).errorDescription!;
    expect(Array.from(long)).toHaveLength(OUTSIDE_TEXT_MAX_CHARACTERS);
    expect(long).toBe('\u{1F600}'.repeat(200)); // whole characters, never half a surrogate pair
    expect(providerRefusal('access_denied', '\r\n')).toEqual({ error: 'access_denied' });
    expect(providerRefusal('access_denied', ['a', 'b'])).toEqual({ error: 'access_denied' });
  });
});
