import { isLive } from './sso.service';

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
