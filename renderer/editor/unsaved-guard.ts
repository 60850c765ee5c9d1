// In a browser tab, reloading or closing the page would drop every unsaved edit: while any editor
// tab has unsaved changes the browser asks first. (The desktop app's window does not ask: Electron
// would block the close silently, with no question shown: its quit warning names the unsaved files
// instead, from what editor/unsaved-report.ts tells the AppService.)
import { hostKind } from '../ipc/host-kind';
import { useEditors } from './editors-store';

export function guardUnsavedEdits(): () => void {
  if (hostKind() !== 'web') return () => undefined;
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (useEditors.getState().tabs.some((tab) => tab.dirty)) event.preventDefault();
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  return () => window.removeEventListener('beforeunload', onBeforeUnload);
}
