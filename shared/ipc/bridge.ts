// What crosses the renderer ↔ AppService boundary besides the contract's shapes: the error the
// renderer rebuilds, the bridge API it calls, and the adapter over the Electron preload's envelopes.
import { z } from 'zod';
import type { CommandInput, CommandName, CommandOutput, EventName, EventPayload } from './contract';

export const IpcErrorCode = z.enum([
  'invalidInput',
  'unknownCommand',
  'notFound',
  'disconnected',
  'unsupported',
  'conflict',
  'remote',
  'internal',
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;
export const IpcErrorPayload = z.object({ code: IpcErrorCode, message: z.string() });
export type IpcErrorPayload = z.infer<typeof IpcErrorPayload>;

/** A user-readable error from the AppService, rebuilt on the renderer side from IpcErrorPayload. */
export class IpcError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IpcError';
  }
}

/** The API the renderer sees (window.tether in Electron, a WebSocket client in web mode). */
export interface TetherBridge {
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** What a command answers on the wire: its output, or the error the renderer rebuilds. */
type CommandEnvelope<N extends CommandName> =
  { ok: true; output: CommandOutput<N> } | { ok: false; error: IpcErrorPayload };

/**
 * What the Electron preload exposes as `window.tether`. Its invoke resolves with the envelope
 * instead of rejecting, because an Error crossing contextBridge keeps only its message; the
 * renderer turns the envelope back into output or an IpcError with its code
 * (`bridgeFromPreload`).
 */
export interface PreloadBridge {
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandEnvelope<N>>;
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** The renderer's TetherBridge over the preload's envelope bridge. */
export function bridgeFromPreload(preload: PreloadBridge): TetherBridge {
  return {
    async invoke(name, input) {
      const result = await preload.invoke(name, input);
      if (!result.ok) throw new IpcError(result.error.code, result.error.message);
      return result.output;
    },
    on: (name, listener) => preload.on(name, listener),
  };
}
