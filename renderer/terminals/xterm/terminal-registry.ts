// Owns every live ProcessTerminal, keyed by process, and routes ordered output batches to them.
// Output for a process no pane shows is acknowledged at once (it stays retained by the AppService
// and is replayed when a pane opens), so background processes never wait on the screen. The title
// a program sets in its terminal goes to the program-titles store, the folder its shell reports
// (OSC 7) to the processes store.
import type { EventPayload, ProcessKey, Settings } from '../../../shared/ipc';
import { invoke } from '../../ipc/ipc-client';
import { processKeyString } from '../../processes/process-key';
import { useProgramTitles } from '../program-titles-store';
import { useProcesses } from '../../processes/processes-store';
import { folderOfOsc7 } from '../../../shared/osc7';
import { sanitizeTitle } from '../tab-title';
import { outputBytes } from './output-flow';
import { ProcessTerminal } from './process-terminal';

const terminals = new Map<string, ProcessTerminal>();

export function terminalFor(key: ProcessKey, settings: Settings): ProcessTerminal {
  const id = processKeyString(key);
  let terminal = terminals.get(id);
  if (!terminal) {
    terminal = new ProcessTerminal({ envId: key.envId, processId: key.processId }, settings);
    // OSC 0/2 titles name the tab; the program chooses them, so they are cleaned first.
    terminal.terminal.onTitleChange((title) =>
      useProgramTitles.getState().setTitle(id, sanitizeTitle(title)),
    );
    // Only recorded: a report changes nothing in the pane, it is where a split starts.
    terminal.terminal.parser.registerOscHandler(7, (payload) => {
      const folder = folderOfOsc7(payload);
      if (folder) {
        useProcesses.getState().setReportedCwd(key, folder);
        terminal?.marks.setCwd(folder);
      }
      return true;
    });
    terminals.set(id, terminal);
  }
  return terminal;
}

export function routeEvents(batches: EventPayload<'processes.events'>): void {
  for (const batch of batches) {
    const terminal = terminals.get(processKeyString(batch));
    if (terminal) {
      terminal.pushLive(batch.events);
      continue;
    }
    const deltaBytes = batch.events.reduce((sum, e) => sum + outputBytes(e), 0);
    if (deltaBytes > 0) {
      invoke('processes.ack', { envId: batch.envId, processId: batch.processId, deltaBytes }).catch(
        () => undefined,
      );
    }
  }
}

/** Disposes terminals whose process no pane shows any more. */
export function retainOnly(shown: Set<string>): void {
  for (const [id, terminal] of terminals) {
    if (!shown.has(id)) {
      terminal.dispose();
      terminals.delete(id);
      useProgramTitles.getState().forget(id);
    }
  }
}

export function applySettingsToAll(settings: Settings): void {
  for (const terminal of terminals.values()) terminal.applySettings(settings);
}

export function catchUpAll(): void {
  for (const terminal of terminals.values()) terminal.catchUp();
}
