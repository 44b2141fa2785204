import { allSettled } from './all-settled';

describe('allSettled', () => {
  it('answers every value in order', async () => {
    await expect(allSettled([Promise.resolve(1), new Promise((resolve) => setTimeout(() => resolve(2), 5))])).resolves.toEqual([1, 2]);
  });

  it('throws the first failure only once every promise has settled', async () => {
    let slowDone = false;
    const slow = new Promise<number>((resolve) =>
      setTimeout(() => {
        slowDone = true;
        resolve(3);
      }, 20),
    );
    await expect(allSettled([Promise.reject(new Error('first')), slow, Promise.reject(new Error('second'))])).rejects.toThrow('first');
    expect(slowDone).toBe(true);
  });
});
