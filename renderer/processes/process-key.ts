// One string key per process, for maps and persisted pane layouts.
import type { ProcessKey } from '../../shared/ipc';

export function processKeyString(key: ProcessKey): string {
  return `${key.envId}\n${key.processId}`;
}
