// Electron IPC channel names, derived from the contract's keys (never listed by hand), shared by
// the preload (which only forwards these) and the main process (which only handles these).
import type { CommandName, EventName } from './contract';

const PREFIX = 'tether:';

export function commandChannel(name: CommandName): string {
  return `${PREFIX}invoke:${name}`;
}

export function eventChannel(name: EventName): string {
  return `${PREFIX}event:${name}`;
}
