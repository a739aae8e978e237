import { describe, expect, it } from 'vitest';
import { throttle } from './throttle.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('throttle', () => {
  it('runs the first call at once and folds a burst into one trailing run', async () => {
    let runs = 0;
    const t = throttle(() => runs++, 50);
    t();
    expect(runs).toBe(1);
    for (let i = 0; i < 20; i++) t();
    expect(runs).toBe(1);
    await wait(80);
    expect(runs).toBe(2);
    await wait(80);
    expect(runs).toBe(2);
  });

  it('cancel drops the pending run', async () => {
    let runs = 0;
    const t = throttle(() => runs++, 30);
    t();
    t();
    t.cancel();
    await wait(60);
    expect(runs).toBe(1);
  });
});
