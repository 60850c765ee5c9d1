// openHome's retry policy on its own: the first load of the home folder is tried again while it
// shows no folder, HOME_RETRY_MS apart, and not once more after the caller gave up on it.
import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { HOME_RETRY_MS, openHome } from './file-actions';
import { filesOf, useFiles } from './files-store';

let bridge: FakeBridge;
let homeCalls: number;
beforeEach(() => {
  bridge = withFreshBridge();
  homeCalls = 0;
  bridge.handle('files.list', ({ path }) => ({ path, entries: [] }));
});

const failingFirst = (failures: number) =>
  bridge.handle('files.home', () => {
    homeCalls += 1;
    if (homeCalls <= failures) throw new Error('the link is not ready');
    return { home: '/home/u', cwd: '' };
  });

describe('openHome', () => {
  it('tries again until a folder is shown, within the retries given', async () => {
    failingFirst(1);
    await openHome('env-1', { retries: 5 });
    expect(homeCalls).toBe(2);
    expect(filesOf(useFiles.getState().byEnv, 'env-1').path).toBe('/home/u');
  });

  it('tries once without retries, and leaves the error in view', async () => {
    failingFirst(1);
    await openHome('env-1');
    expect(homeCalls).toBe(1);
    expect(filesOf(useFiles.getState().byEnv, 'env-1').error).toBe('the link is not ready');
  });

  it('stops trying again once its signal aborts (the view left, or a folder was shown)', async () => {
    failingFirst(10);
    const stop = new AbortController();
    const done = openHome('env-1', { retries: 5, signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, HOME_RETRY_MS / 4));
    stop.abort();
    await done;
    await new Promise((resolve) => setTimeout(resolve, HOME_RETRY_MS));
    expect(homeCalls).toBe(1);
  });
});
