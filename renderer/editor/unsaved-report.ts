// Tells the AppService which editor tabs have unsaved changes, whenever that list changes, so the
// desktop app's quit warning can name them (the window's close cannot ask the page). Sent again
// after the bridge reconnected: the host forgets a renderer's report when its link goes.
import { invoke } from '../ipc/ipc-client';
import { useEditors } from './editors-store';

/** The list last sent, as JSON: the host already knows it. */
let lastSent = '[]';

function dirtyFiles(): string[] {
  return useEditors
    .getState()
    .tabs.filter((tab) => tab.dirty)
    .map((tab) => tab.name);
}

function sendIfChanged(): void {
  const files = dirtyFiles();
  const key = JSON.stringify(files);
  if (key === lastSent) return;
  lastSent = key;
  // A dropped bridge loses this report; the reconnect sends the list again (resendUnsavedEdits).
  void invoke('app.reportUnsavedEdits', { files }).catch(() => undefined);
}

/** Reports every change of the unsaved list from now on; returns the unsubscribe. */
export function reportUnsavedEdits(): () => void {
  lastSent = '[]';
  sendIfChanged();
  return useEditors.subscribe(sendIfChanged);
}

/** The bridge reconnected to a host that forgot this renderer: tell it the list again. */
export function resendUnsavedEdits(): void {
  if (dirtyFiles().length === 0) return;
  lastSent = '';
  sendIfChanged();
}
