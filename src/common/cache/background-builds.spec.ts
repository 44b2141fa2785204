import { BackgroundBuilds, BuildClaims, FoundBuild } from './background-builds';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function builds(claims: BuildClaims = { claim: async () => true, release: async () => undefined }, lookAgainMs = 60_000) {
  const failures: unknown[] = [];
  const subject = new BackgroundBuilds<string>({ remembered: 2, lookAgainMs, claims, onFailure: (error) => failures.push(error) });
  return { subject, failures };
}

const found = (build: string, usableForMs = 60_000): FoundBuild<string> => ({ build, usableUntil: Date.now() + usableForMs });

describe('BackgroundBuilds', () => {
  it('answers without a build while one is looked for, then reads what was found', async () => {
    const { subject } = builds();
    let looks = 0;
    const look = async () => (looks++, found('build-1'));
    expect(subject.ready('org', 'v1', look)).toBeUndefined();
    expect(subject.ready('org', 'v1', look)).toBeUndefined(); // the look under way is not repeated
    await settle();
    expect(subject.ready('org', 'v1', look)).toBe('build-1');
    expect(looks).toBe(1);
  });

  it('forgets the build of an older data version, and looks again only after lookAgainMs', async () => {
    const { subject } = builds(undefined, 60_000);
    expect(subject.ready('org', 'v1', async () => found('old'))).toBeUndefined();
    await settle();
    let looks = 0;
    expect(subject.ready('org', 'v2', async () => (looks++, undefined))).toBeUndefined();
    await settle();
    expect(subject.ready('org', 'v2', async () => (looks++, found('new')))).toBeUndefined(); // nothing found a moment ago
    expect(looks).toBe(1);
  });

  it('stops reading a build past its usable time', async () => {
    const { subject } = builds(undefined, 0);
    subject.ready('org', 'v1', async () => found('short', -1));
    await settle();
    expect(subject.ready('org', 'v1', async () => undefined)).toBeUndefined();
  });

  it('reports a failed look and tries again later', async () => {
    const { subject, failures } = builds(undefined, 0);
    subject.ready('org', 'v1', async () => {
      throw new Error('store down');
    });
    await settle();
    expect(failures).toEqual([new Error('store down')]);
    subject.ready('org', 'v1', async () => found('after'));
    await settle();
    expect(subject.ready('org', 'v1', async () => undefined)).toBe('after');
  });

  it('builds a claim once at a time, in this process and across instances, releasing it after', async () => {
    const held = new Set<string>();
    const released: string[] = [];
    const claims: BuildClaims = {
      claim: async (claim) => (held.has(claim) ? false : (held.add(claim), true)),
      release: async (claim) => {
        held.delete(claim);
        released.push(claim);
      },
    };
    const { subject } = builds(claims);
    let finish!: (value: string) => void;
    const first = subject.once('c', () => new Promise<string>((resolve) => (finish = resolve)));
    await settle();
    expect(await subject.once('c', async () => 'second')).toBeUndefined();
    held.add('other-instance');
    expect(await subject.once('other-instance', async () => 'third')).toBeUndefined();
    finish('first');
    expect(await first).toBe('first');
    expect(released).toEqual(['c']);
    expect(await subject.once('c', async () => 'again')).toBe('again');
  });

  it('settles every look under way', async () => {
    const { subject } = builds();
    let done = false;
    subject.ready('org', 'v1', () => new Promise((resolve) => setTimeout(() => ((done = true), resolve(undefined)), 20)));
    await subject.settled();
    expect(done).toBe(true);
  });
});
