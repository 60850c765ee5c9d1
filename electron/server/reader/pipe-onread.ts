// Reads a child's output pipe into one caller-owned buffer, as `net.connect({ onread })` and a tty
// ReadStream made with `onread` do, instead of a fresh buffer per read. child_process makes its
// pipes' sockets itself and takes no `onread`, so this sets on the socket what the option would
// have set (Node's internal kBuffer and kBufferCb, found by their descriptions) and points the pipe
// handle at the buffer. Node's net.Socket then treats it as any onread socket: each read calls
// `onRead(n)` with the bytes in `buffer`, and pause()/resume() stop and start the reading. Where
// the internals are not found (another Node), it changes nothing and says so.
import type { Readable } from 'node:stream';

interface UserBufferHandle {
  useUserBuffer(buffer: Uint8Array): void;
}

function symbolNamed(target: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(target).find((symbol) => symbol.description === description);
}

/**
 * Switches `source` (a child's stdout or stderr socket, before its first read was delivered) to
 * reads into `buffer`, each handed to `onRead` before the next one lands there. False, with
 * nothing changed, when this Node's sockets do not look as expected: then read it with 'data'.
 */
export function readIntoBuffer(source: Readable, buffer: Buffer, onRead: (bytes: number) => void): boolean {
  const socket = source as Readable & { _handle?: Partial<UserBufferHandle> | null };
  const bufferKey = symbolNamed(socket, 'kBuffer');
  const callbackKey = symbolNamed(socket, 'kBufferCb');
  const handle = socket._handle;
  if (!bufferKey || !callbackKey || typeof handle?.useUserBuffer !== 'function') return false;
  const slots = socket as unknown as Record<symbol, unknown>;
  if (slots[bufferKey] !== null || slots[callbackKey] !== null) return false;
  slots[bufferKey] = buffer;
  slots[callbackKey] = (bytes: number): boolean => {
    onRead(bytes);
    return true;
  };
  handle.useUserBuffer(buffer);
  source.resume(); // As with onread, nothing else starts the reading.
  return true;
}
