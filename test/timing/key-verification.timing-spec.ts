// modes: embedded — key verification in the process
import { withChecksum } from '../support/key-format';
import { startAppWithEnv } from '../support/app-with-env';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * A coarse timing sanity check of key verification: a wrong secret is refused in about the time the right
 * one is accepted, whatever its shared prefix (the constant-time comparison itself is asserted in
 * src/auth/key-comparison.spec.ts). Timed, so it runs alone (the timing project, in band).
 */

describe('key verification timing', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await startAppWithEnv({});
    org = await t.newOrganization();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes about as long to refuse a wrong secret as to accept the right one (coarse sanity check)', async () => {
    const [, id] = /^cik_([0-9A-Za-z]{12})_/.exec(org.key)!;
    const secret = org.key.slice(17, 60);
    // Same id (the record is cached after the first lookup), secrets sharing 0, 21 and 42 leading characters.
    // The first unshared character always differs from the secret's (a secret ending in Z must not make the "wrong" key right).
    const differing = (shared: number) => (secret[shared] === 'Z' ? 'Y' : 'Z');
    const variants = [0, 21, 42].map((shared) =>
      withChecksum(`cik_${id}_${secret.slice(0, shared)}${differing(shared)}${'Z'.repeat(42 - shared)}`),
    );
    await t.apiKeys.authenticate(org.key);
    const median = async (key: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 400; i++) {
        const started = process.hrtime.bigint();
        await t.apiKeys.authenticate(key);
        samples.push(Number(process.hrtime.bigint() - started));
      }
      return samples.sort((x, y) => x - y)[samples.length >> 1];
    };
    // One after another (interleaved loops would time each other's work), the right key measured on both sides.
    const wrong: number[] = [];
    const rights: number[] = [await median(org.key)];
    for (const variant of variants) {
      wrong.push(await median(variant));
      rights.push(await median(org.key));
    }
    const right = rights.sort((x, y) => x - y)[rights.length >> 1];
    for (const variant of variants) expect(await t.apiKeys.authenticate(variant)).toBeUndefined();
    console.log(
      `auth-timing[${process.env.E2E_MODE}]: median verify ns: right ${right}, wrong secret sharing 0/21/42 leading chars ${wrong.join('/')}`,
    );
    // Coarse: within a factor of 3 of each other (a per-character early exit would show as a trend, not this).
    for (const w of wrong) {
      expect(w / right).toBeGreaterThan(1 / 3);
      expect(w / right).toBeLessThan(3);
    }
  });
});
