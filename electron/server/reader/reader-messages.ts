// The messages between the main thread and the reader thread, both ways. Every entry (a pty or a
// pipe process) has a numeric id chosen by the main thread and its own shared memory
// (reader-shared-memory.ts), handed over when the entry is opened.
import type { SpawnOptions } from 'node:child_process';
import type { OutputStream } from '../../../shared/protocol';

/** What every opening message carries besides its own fields. */
interface EntryOpening {
  id: number;
  shared: SharedArrayBuffer;
  /** Output the reader may post before the main thread took it (see READER_READ_AHEAD_BYTES). */
  readAhead: number;
  /** Size of each output stream's ring (output-ring.ts), 0 for none; see outputRingBytes. */
  ringBytes: number;
}

export interface OpenPtyMessage extends EntryOpening {
  op: 'pty';
  /** The terminal's master, spawned by node-pty on the main thread. */
  fd: number;
}

export interface SpawnPipesMessage extends EntryOpening {
  op: 'spawn';
  file: string;
  args: string[];
  options: SpawnOptions;
}

export type OpenEntryMessage = OpenPtyMessage | SpawnPipesMessage;

/**
 * Main thread → reader. 'pause' and 'resume' follow the paused flag in shared memory, 'wake'
 * answers a wake request; 'drain' reads a pty's master dry and ends it; 'write' feeds a pipe
 * process's stdin and 'endStdin' closes it (after the writes posted before it).
 */
export type ToReaderMessage =
  | OpenEntryMessage
  | { op: 'pause' | 'resume' | 'wake' | 'drain' | 'endStdin'; id: number }
  | { op: 'write'; id: number; data: Uint8Array };

/** Reader → main thread. */
export type FromReaderMessage =
  | { op: 'data'; id: number; stream: OutputStream; data: Uint8Array }
  /** The stream's output ring, shared from now on; its batches follow as 'ringData'. */
  | { op: 'ring'; id: number; stream: OutputStream; ring: SharedArrayBuffer }
  /** A batch in the stream's ring: `length` bytes at `offset`, ending at ring position `end`. */
  | { op: 'ringData'; id: number; stream: OutputStream; offset: number; length: number; end: number }
  /** A pty's master reached its end ('end'), or one output pipe closed ('streamEnd'). */
  | { op: 'end' | 'streamEnd'; id: number }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { op: 'spawned'; id: number; pid: number }
  | { op: 'spawnFailed'; id: number; code: string | undefined; message: string };

/** What one postMessage from the reader carries: its messages of one event-loop turn, in order. */
export type FromReaderBatch = FromReaderMessage[];
