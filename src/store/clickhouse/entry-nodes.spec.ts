import { EntryNodes, isNoAnswer } from './entry-nodes';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });

describe('EntryNodes', () => {
  let clock = 0;
  const nodes = () => new EntryNodes(['a', 'b', 'c'], () => clock, 5000);
  beforeEach(() => (clock = 1_000_000));

  it('reads through the preferred node while it answers', async () => {
    const entries = nodes();
    expect(await entries.read(async (node) => node)).toBe('a');
    expect(entries.current()).toBe('a');
  });

  it('runs a read once more on the next node when its node gives no answer, and passes that node over for the cooldown', async () => {
    const entries = nodes();
    const asked: string[] = [];
    const answer = await entries.read(async (node) => {
      asked.push(node);
      if (node === 'a') throw refused();
      return node;
    });
    expect([answer, asked]).toEqual(['b', ['a', 'b']]);
    expect(entries.current()).toBe('b');
    clock += 4999;
    expect(entries.current()).toBe('b');
    clock += 1; // the cooldown over: the next request probes the preferred node again
    expect(entries.current()).toBe('a');
  });

  it('retries once only, and never an answer that is an error (a statement refused by a live node)', async () => {
    const entries = nodes();
    let calls = 0;
    await expect(
      entries.read(async () => {
        calls++;
        throw refused();
      }),
    ).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      entries.read(async () => {
        calls++;
        throw new Error('Code: 241. DB::Exception: Memory limit exceeded');
      }),
    ).rejects.toThrow('Memory limit');
    expect(calls).toBe(1);
  });

  it('with every node passed over, still tries one (it may be back)', async () => {
    const entries = new EntryNodes(['a', 'b'], () => clock, 5000);
    await entries.read(async (node) => (node === 'a' ? Promise.reject(refused()) : node));
    await entries.read(async (node) => (node === 'b' ? Promise.reject(refused()) : node));
    expect(entries.current()).toBe('a');
  });
});

describe('isNoAnswer', () => {
  it('knows the socket failures, in a cause too, and nothing else', () => {
    expect(isNoAnswer(refused())).toBe(true);
    expect(isNoAnswer(new Error('request failed', { cause: Object.assign(new Error('read'), { code: 'ECONNRESET' }) }))).toBe(true);
    expect(isNoAnswer(new Error('socket hang up'))).toBe(true);
    expect(isNoAnswer(new Error('Timeout error.'))).toBe(false);
    expect(isNoAnswer(new Error('Code: 60. DB::Exception: Unknown table'))).toBe(false);
    expect(isNoAnswer('ECONNREFUSED')).toBe(false);
    // An error object of another realm (Node's own, seen from a vm context) is not `instanceof Error` here.
    expect(isNoAnswer({ message: 'connect ECONNREFUSED 127.0.0.1:8123', code: 'ECONNREFUSED' })).toBe(true);
  });
});
