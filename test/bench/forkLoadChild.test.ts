import path from 'node:path';
import { forkLoadChild } from '../../bench/support/platformProcess';

type Report = { kind: 'first'; n: number } | { kind: 'second'; n: number } | { kind: 'never' };

/** The benches' load processes report phases by message; the parent asks for them one at a time. */
describe('forkLoadChild', () => {
  it('keeps a report that arrives before it is asked for, and rejects one the child exits without sending', async () => {
    const load = forkLoadChild<Report>(path.join(__dirname, 'fixtures/reporter.cjs'), [], 'reporter');
    // Both reports arrive while the parent waits for something else (a bench awaits an HTTP request here).
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(load.message('second')).resolves.toEqual({ kind: 'second', n: 2 });
    await expect(load.message('first')).resolves.toEqual({ kind: 'first', n: 1 });
    const never = load.message('never');
    load.child.send('exit');
    await expect(never).rejects.toThrow('reporter exited with 0');
    await expect(load.message('first')).rejects.toThrow('reporter exited with 0');
  });
});
