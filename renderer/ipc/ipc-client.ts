// The renderer's single door to the AppService: every command and event subscription goes through
// here, over whichever TetherBridge the host provided (Electron preload or the web WebSocket bridge).
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
  TetherBridge,
} from '../../shared/ipc';

let current: TetherBridge | null = null;

class BridgeMissingError extends Error {
  readonly code = 'bridgeMissing';
  constructor() {
    super('The renderer has no connection to the Tether app yet; reload the window.');
    this.name = 'BridgeMissingError';
  }
}

export function setBridge(bridge: TetherBridge): void {
  current = bridge;
}

function bridge(): TetherBridge {
  if (current === null) throw new BridgeMissingError();
  return current;
}

export function invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
  // A missing bridge rejects like any failed command, so fire-and-forget callers (`.catch`) hold.
  if (current === null) return Promise.reject(new BridgeMissingError());
  return current.invoke(name, input);
}

export function onEvent<N extends EventName>(
  name: N,
  listener: (payload: EventPayload<N>) => void,
): () => void {
  return bridge().on(name, listener);
}
