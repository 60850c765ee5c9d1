// The renderer tells the AppService which editor tabs have unsaved changes whenever that list
// changes (not on every store change), and again after the bridge reconnected.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge } from '../ipc/ipc-client';
import { useEditors, type EditorTab } from './editors-store';
import { FakeBridge } from '../test/fake-bridge';
import { resetStores } from '../test/reset-stores';
import { reportUnsavedEdits, resendUnsavedEdits } from './unsaved-report';

function tab(id: string, name: string): EditorTab {
  return {
    id,
    envId: 'local',
    path: `/home/me/${name}`,
    name,
    content: { kind: 'loading' },
    dirty: false,
    save: { kind: 'idle' },
    conflict: null,
    deleted: false,
    closing: false,
    savedAt: null,
  };
}

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(() => {
  resetStores();
  bridge = new FakeBridge().handle('app.reportUnsavedEdits', () => ({ ok: true }));
  setBridge(bridge);
});
afterEach(() => stop?.());

describe('reportUnsavedEdits', () => {
  it('sends the unsaved file names when the list changes, and only then', () => {
    stop = reportUnsavedEdits();
    const editors = useEditors.getState();
    editors.add(tab('e1', 'a.txt'));
    editors.add(tab('e2', 'b.md'));
    expect(bridge.callsOf('app.reportUnsavedEdits')).toEqual([]);

    editors.patch('e1', { dirty: true });
    editors.patch('e1', { save: { kind: 'saving' } });
    editors.patch('e2', { dirty: true });
    expect(bridge.callsOf('app.reportUnsavedEdits')).toEqual([
      { files: ['a.txt'] },
      { files: ['a.txt', 'b.md'] },
    ]);

    // Saved, then closed: the host hears the list shrink to nothing.
    editors.patch('e1', { dirty: false, save: { kind: 'idle' } });
    editors.remove('e2');
    expect(bridge.callsOf('app.reportUnsavedEdits').slice(2)).toEqual([{ files: ['b.md'] }, { files: [] }]);
  });

  it('sends the list again after a reconnect, when there is one to send', () => {
    stop = reportUnsavedEdits();
    resendUnsavedEdits();
    expect(bridge.callsOf('app.reportUnsavedEdits')).toEqual([]);
    useEditors.getState().add({ ...tab('e1', 'a.txt'), dirty: true });
    resendUnsavedEdits();
    expect(bridge.callsOf('app.reportUnsavedEdits')).toEqual([{ files: ['a.txt'] }, { files: ['a.txt'] }]);
  });
});
