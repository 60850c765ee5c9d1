// openHome's retry policy on its own: the first load of the home folder is tried again while it
// shows no folder, HOME_RETRY_MS apart, and not once more after the caller gave up on it. And what
// a listing of the folder already shown leaves of the cursor, the marks and the preview.
import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { HOME_RETRY_MS, navigate, openHome, refresh, selectEntry } from './file-actions';
import type { FileEntry } from '../../shared/ipc';
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

const file = (name: string): FileEntry => ({
  name,
  path: `/w/${name}`,
  kind: 'file',
  size: 1,
  modifiedAtMs: 0,
  hidden: false,
});

describe('a listing of the folder shown', () => {
  it('keeps a click made while it was on its way, and reads that preview afresh', async () => {
    let entries = [file('a.txt'), file('b.txt')];
    let answerList: () => void = () => undefined;
    let held = false;
    bridge.handle('files.list', ({ path }) =>
      held ? new Promise((resolve) => (answerList = () => resolve({ path, entries }))) : { path, entries },
    );
    let reads = 0;
    bridge.handle('files.preview', () => ({
      kind: 'text',
      text: `read ${++reads}`,
      truncated: false,
      size: 6,
    }));
    await navigate('env-1', '/w');

    held = true;
    const refreshed = refresh('env-1');
    await selectEntry('env-1', '/w/b.txt', true, ['/w/a.txt', '/w/b.txt']);
    entries = [file('b.txt'), file('c.txt')];
    answerList();
    await refreshed;
    await new Promise((resolve) => setTimeout(resolve, 0));

    const f = filesOf(useFiles.getState().byEnv, 'env-1');
    expect(f.selected).toBe('/w/b.txt');
    expect(f.marked).toEqual(['/w/b.txt']);
    expect(f.preview?.preview).toEqual({ kind: 'text', text: 'read 2', truncated: false, size: 6 });
  });

  it('starts another folder with nothing selected', async () => {
    bridge.handle('files.list', ({ path }) => ({ path, entries: [file('a.txt')] }));
    bridge.handle('files.preview', () => ({ kind: 'binary', size: 1 }));
    await navigate('env-1', '/w');
    await selectEntry('env-1', '/w/a.txt', true);
    await navigate('env-1', '/elsewhere');
    const f = filesOf(useFiles.getState().byEnv, 'env-1');
    expect([f.selected, f.marked, f.preview]).toEqual([null, [], null]);
  });
});
