// Owns every live TerminalSession, keyed by process, and routes ordered output batches to them.
// Output for a process no pane shows is acknowledged at once (it stays retained by the AppService
// and is replayed when a pane opens), so background processes never wait on the screen.
import type { EventPayload, ProcessKey, Settings } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { processKeyString } from '../stores/process-key';
import { outputBytes } from './output-flow';
import { TerminalSession } from './terminal-session';

const sessions = new Map<string, TerminalSession>();

export function sessionFor(key: ProcessKey, settings: Settings): TerminalSession {
  const id = processKeyString(key);
  let session = sessions.get(id);
  if (!session) {
    session = new TerminalSession({ envId: key.envId, processId: key.processId }, settings);
    sessions.set(id, session);
  }
  return session;
}

export function routeEvents(batches: EventPayload<'processes.events'>): void {
  for (const batch of batches) {
    const session = sessions.get(processKeyString(batch));
    if (session) {
      session.pushLive(batch.events);
      continue;
    }
    const bytes = batch.events.reduce((sum, e) => sum + outputBytes(e), 0);
    if (bytes > 0) {
      invoke('processes.ack', { envId: batch.envId, processId: batch.processId, bytes }).catch(
        () => undefined,
      );
    }
  }
}

/** Disposes sessions whose process no pane shows any more. */
export function retainOnly(shown: Set<string>): void {
  for (const [id, session] of sessions) {
    if (!shown.has(id)) {
      session.dispose();
      sessions.delete(id);
    }
  }
}

export function applySettingsToAll(settings: Settings): void {
  for (const session of sessions.values()) session.applySettings(settings);
}

export function catchUpAll(): void {
  for (const session of sessions.values()) session.catchUp();
}
