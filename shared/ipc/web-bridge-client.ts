// The renderer's TetherBridge in web mode: the IPC contract over one WebSocket to the web host.
// Framework-free; needs only a WebSocket implementation (the browser's global by default).
// Pending invokes fail with IpcError 'disconnected' if the socket drops; it then reconnects.
import { IpcError, type TetherBridge } from './bridge';
import type { EventName } from './contract';
import { decodeWebMessage, encodeWebMessage, WebServerMessage } from './web-protocol';

/** The part of the standard WebSocket API this bridge uses. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Set to 'arraybuffer' so binary messages arrive as ArrayBuffer (a browser's default is Blob). */
  binaryType?: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

export type WebBridgeStatus = 'connecting' | 'open' | 'closed';

export interface WebSocketBridge extends TetherBridge {
  readonly status: WebBridgeStatus;
  /** Called on every status change; returns an unsubscribe function. */
  onStatus(listener: (status: WebBridgeStatus) => void): () => void;
  /** Closes for good (no reconnect). */
  close(): void;
}

const OPEN = 1;
/** Delay before reconnecting after the socket dropped. */
const RECONNECT_DELAY_MS = 1_000;

export function createWebSocketBridge(url: string, factory?: WebSocketFactory): WebSocketBridge {
  const open: WebSocketFactory =
    factory ??
    ((u) => {
      const Impl = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
      if (!Impl) throw new Error('No WebSocket implementation is available.');
      return new Impl(u);
    });
  let socket: WebSocketLike | null = null;
  let status: WebBridgeStatus = 'connecting';
  let stopped = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const queued: Array<string | Uint8Array> = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<(status: WebBridgeStatus) => void>();

  const setStatus = (next: WebBridgeStatus): void => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const connect = (): void => {
    setStatus('connecting');
    const ws = open(url);
    ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.onopen = () => {
      setStatus('open');
      for (const text of queued.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => {
      const data = event.data;
      let parsed;
      try {
        if (typeof data === 'string') parsed = WebServerMessage.safeParse(decodeWebMessage(data));
        else if (data instanceof ArrayBuffer)
          parsed = WebServerMessage.safeParse(decodeWebMessage(new Uint8Array(data)));
        else if (data instanceof Uint8Array) parsed = WebServerMessage.safeParse(decodeWebMessage(data));
        else return;
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'event') {
        for (const listener of listeners.get(message.name) ?? []) listener(message.payload);
        return;
      }
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (message.ok) call.resolve(message.output);
      else call.reject(new IpcError(message.error.code, message.error.message));
    };
    ws.onerror = () => undefined;
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      const why = event.reason || `code ${event.code}`;
      for (const call of pending.values()) {
        call.reject(new IpcError('disconnected', `The connection to Tether closed (${why}); try again.`));
      }
      pending.clear();
      // Never send a command after its caller was told it failed.
      queued.length = 0;
      setStatus('closed');
      if (!stopped) setTimeout(connect, RECONNECT_DELAY_MS);
    };
  };
  connect();

  return {
    get status() {
      return status;
    },
    invoke(name, input) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        const message = encodeWebMessage({ type: 'invoke', id, name, input });
        if (socket && socket.readyState === OPEN) socket.send(message);
        else queued.push(message);
      });
    },
    on(name: EventName, listener: (payload: never) => void) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(name, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      stopped = true;
      socket?.close(1000, 'closed by the app');
    },
  } as WebSocketBridge;
}
