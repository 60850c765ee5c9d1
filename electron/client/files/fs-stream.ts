// The pipelined halves of RemoteFileSystem: readStream and writeStream move a file in blocks,
// several in flight at once, through connection-scoped handles. A transfer cut off by a reconnect
// reopens its file at the offset it reached (an upload only where the server can open a file
// without truncating it, and otherwise starts over or fails clearly).
import { randomUUID } from 'node:crypto';
import {
  MAX_FS_BLOCK_BYTES,
  Method,
  TetherCapability,
  type FsReadBlockResult,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../../shared/protocol';
import type { ReadStreamOptions, WriteStreamOptions } from '../api';
import { ClientError, isClientError, isUnknownFileHandleError } from '../client-error';
import { DEFAULT_FS_BLOCK_BYTES } from '../constants';
import { wireBytesToBuffer } from '../link/message-decoder';
import { toPathUri } from './path-uri';
import { ResumeBudget } from '../link/resume-budget';
import { TransferWindow } from './transfer-window';

/** What the file system needs of the client: one call on the current connection, and capabilities. */
export interface RemoteFileSystemOps {
  callOnce<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  hasCapability(name: string): boolean;
}

/** Codex refuses handle ids longer than 32 bytes. */
function newHandleId(): string {
  return randomUUID().replace(/-/g, '');
}

/**
 * The transfer's handle is gone with its connection: either the call was cut off, or it went out on
 * the recovered connection, where the old handle is unknown.
 */
function handleLost(error: unknown): boolean {
  return (
    isClientError(error, 'disconnected') || (isClientError(error, 'rpc') && isUnknownFileHandleError(error))
  );
}

/** The file a writeStream writes, and its open handle (null while there is none). */
interface WriteTarget {
  path: string;
  uri: string;
  /** The server can reopen the file without truncating it (`tetherFsUpdate`). */
  resumable: boolean;
  handleId: string | null;
}

/** A write the server cannot continue after a reconnect: it has to start over from byte 0. */
class StartOver extends Error {
  constructor(
    readonly offset: number,
    override readonly cause: unknown,
  ) {
    super('start over');
  }
}

/** A call's outcome as a value, so a pipelined call that fails unawaited is never unhandled. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  return call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

interface InFlight<T> {
  sentAt: number;
  result: Promise<Settled<T>>;
}

interface WriteInFlight extends InFlight<unknown> {
  offset: number;
  data: Uint8Array;
  /** Its write was answered ok (it may still wait behind an earlier block to be counted). */
  landed?: boolean;
}

const NOT_SENT: Promise<Settled<unknown>> = Promise.resolve({ ok: false, error: new Error('not sent') });

/** The source cut and joined into blocks of exactly `size` bytes (the last one may be shorter). */
async function* blocksOf(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const data of source) {
    for (let rest = data; rest.byteLength > 0;) {
      if (held === 0 && rest.byteLength >= size) {
        yield rest.subarray(0, size);
        rest = rest.subarray(size);
        continue;
      }
      const piece = rest.subarray(0, size - held);
      parts.push(piece);
      held += piece.byteLength;
      rest = rest.subarray(piece.byteLength);
      if (held === size) {
        yield parts.length === 1 ? parts[0]! : Buffer.concat(parts);
        parts = [];
        held = 0;
      }
    }
  }
  if (held > 0) yield parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new ClientError('aborted', `${what} was cancelled.`);
}

/**
 * A file that arrived at another size than its server declared. A download stops at the declared
 * size: a server that keeps sending must not grow a local file (and fill the disk) past what it said.
 */
export function sizeMismatch(path: string, declared: number, received: number): ClientError {
  return new ClientError(
    'sizeMismatch',
    received > declared
      ? `${path} is longer than the ${declared} bytes the server declared; the download stopped there.`
      : `${path} ended after ${received} of the ${declared} bytes the server declared.`,
  );
}

/**
 * Reads `path` in blocks, several in flight at once (TransferWindow sizes how many), and hands
 * them to `onChunk` strictly in order. A reconnect reopens the file at the first byte not yet
 * handed on; what was in flight is asked for again (reads have no side effects). With
 * `expectedBytes`, a byte past it, or an end before it, fails the read (sizeMismatch).
 */
export async function readStream(
  ops: RemoteFileSystemOps,
  path: string,
  onChunk: (chunk: Uint8Array, offset: number) => void | Promise<void>,
  options: ReadStreamOptions = {},
): Promise<{ bytes: number }> {
  const expected = options.expectedBytes;
  const len = Math.min(MAX_FS_BLOCK_BYTES, Math.max(1, options.blockSize ?? DEFAULT_FS_BLOCK_BYTES));
  const uri = toPathUri(path);
  const window = new TransferWindow(len);
  let offset = 0;
  const resumes = new ResumeBudget(`Reading ${path}`);
  for (;;) {
    throwIfAborted(options.signal, `Reading ${path}`);
    const handleId = newHandleId();
    try {
      await ops.callOnce(Method.fsOpen, { handleId, path: uri, mode: 'read' });
      const inFlight: Array<InFlight<FsReadBlockResult>> = [];
      let next = offset;
      for (;;) {
        throwIfAborted(options.signal, `Reading ${path}`);
        while (inFlight.length < window.blocks) {
          const sentAt = window.now();
          const result = settle(ops.callOnce(Method.fsReadBlock, { handleId, offset: next, len }));
          inFlight.push({ sentAt, result });
          next += len;
        }
        const head = inFlight.shift()!;
        const answer = await head.result;
        if (!answer.ok) throw answer.error;
        resumes.progressed();
        const chunk = wireBytesToBuffer(answer.value.chunk);
        window.answered(chunk.byteLength, head.sentAt);
        if (expected !== undefined && offset + chunk.byteLength > expected) {
          throw sizeMismatch(path, expected, offset + chunk.byteLength);
        }
        if (chunk.byteLength > 0) {
          await onChunk(chunk, offset);
          offset += chunk.byteLength;
        }
        if (answer.value.eof) {
          if (expected !== undefined && offset !== expected) throw sizeMismatch(path, expected, offset);
          return { bytes: offset };
        }
        if (chunk.byteLength < len) {
          // A short read before the end: the blocks behind it were asked for at wrong offsets.
          inFlight.length = 0;
          next = offset;
        }
      }
    } catch (error) {
      // Handles die with the connection; reads are idempotent, so reopen at the same offset.
      if (!handleLost(error)) throw error;
      resumes.spend(error);
    } finally {
      closeHandle(ops, handleId);
    }
  }
}

/**
 * Writes `source` to `path` (created or truncated). Where the server has `tetherFsUpdate`, a
 * reconnect costs nothing: the file is reopened without truncation and the block that was in
 * flight is written again at its offset (rewriting the same bytes is harmless if it had landed).
 * Elsewhere a reopen would truncate, so the write starts over from byte 0 with a fresh pass from
 * `options.rewind`; without one the upload fails and says how far it got.
 */
export async function writeStream(
  ops: RemoteFileSystemOps,
  path: string,
  source: AsyncIterable<Uint8Array>,
  options: WriteStreamOptions = {},
): Promise<{ bytes: number }> {
  const resumes = new ResumeBudget(`Writing ${path}`);
  const target: WriteTarget = {
    path,
    uri: toPathUri(path),
    resumable: ops.hasCapability(TetherCapability.fsUpdate),
    handleId: null,
  };
  try {
    target.handleId = await openForWrite(ops, target, 'replace', resumes, options.signal);
    let pass = source;
    for (;;) {
      try {
        return { bytes: await writePass(ops, target, pass, resumes, options) };
      } catch (error) {
        if (!(error instanceof StartOver)) throw error;
        if (!options.rewind) {
          throw new ClientError(
            'disconnected',
            `The connection dropped after ${error.offset} bytes of ${path} were written; the remote file is ` +
              'incomplete, and this server cannot continue a write (it lacks tetherFsUpdate). Upload it again.',
          );
        }
        resumes.spend(error.cause);
        dropHandle(ops, target);
        target.handleId = await openForWrite(ops, target, 'replace', resumes, options.signal);
        options.onProgress?.(0);
        pass = options.rewind();
      }
    }
  } finally {
    dropHandle(ops, target);
  }
}

/**
 * Writes one pass of the source from byte 0 and returns its length, several blocks in flight at
 * once, each at its own fixed offset. When the handle is lost, the writes still in flight are let
 * settle, the file is reopened in `update` mode, and exactly the blocks that did not land are
 * written again at their offsets; where that mode is missing, throws StartOver.
 */
async function writePass(
  ops: RemoteFileSystemOps,
  target: WriteTarget,
  pass: AsyncIterable<Uint8Array>,
  resumes: ResumeBudget,
  options: WriteStreamOptions,
): Promise<number> {
  const window = new TransferWindow(MAX_FS_BLOCK_BYTES);
  const inFlight: WriteInFlight[] = [];
  let offset = 0;
  let landed = 0;
  // Blocks count as written in order, as soon as they are answered: progress must not wait until
  // the window is full again (a slow source, such as the renderer feeding an upload, leaves it idle).
  const countLanded = (): void => {
    while (inFlight[0]?.landed) {
      const head = inFlight.shift()!;
      window.answered(head.data.byteLength, head.sentAt);
      resumes.progressed();
      landed = head.offset + head.data.byteLength;
      options.onProgress?.(landed);
    }
  };
  const send = (block: WriteInFlight): void => {
    block.sentAt = window.now();
    const result = settle(
      ops.callOnce(Method.fsWriteBlock, {
        handleId: target.handleId!,
        offset: block.offset,
        // Raw: the connection sends it as base64 or, where negotiated, in a binary data frame.
        chunk: block.data,
      }),
    );
    block.result = result;
    void result.then((answer) => {
      if (!answer.ok || block.result !== result) return;
      block.landed = true;
      countLanded();
    });
  };
  const settleOldest = async (): Promise<void> => {
    const head = inFlight[0]!;
    const answer = await head.result;
    if (answer.ok) {
      head.landed = true;
      countLanded();
      return;
    }
    if (!handleLost(answer.error)) throw answer.error;
    const answers = await Promise.all(inFlight.map((block) => block.result));
    if (!target.resumable) throw new StartOver(landed, answer.error);
    resumes.spend(answer.error);
    dropHandle(ops, target);
    target.handleId = await openForWrite(ops, target, 'update', resumes, options.signal);
    inFlight.forEach((block, i) => {
      if (!answers[i]!.ok) send(block);
    });
  };
  for await (const data of blocksOf(pass, MAX_FS_BLOCK_BYTES)) {
    throwIfAborted(options.signal, `Writing ${target.path}`);
    while (inFlight.length >= window.blocks) await settleOldest();
    const block: WriteInFlight = { offset, data, sentAt: 0, result: NOT_SENT };
    send(block);
    inFlight.push(block);
    offset += data.byteLength;
  }
  while (inFlight.length > 0) {
    throwIfAborted(options.signal, `Writing ${target.path}`);
    await settleOldest();
  }
  return offset;
}

/** Opens the target for writing on a fresh handle, again after each reconnect that cut the open off. */
async function openForWrite(
  ops: RemoteFileSystemOps,
  target: WriteTarget,
  mode: 'replace' | 'update',
  resumes: ResumeBudget,
  signal: AbortSignal | undefined,
): Promise<string> {
  for (;;) {
    throwIfAborted(signal, `Writing ${target.path}`);
    const handleId = newHandleId();
    try {
      await ops.callOnce(Method.fsOpen, { handleId, path: target.uri, mode });
      return handleId;
    } catch (error) {
      if (!isClientError(error, 'disconnected')) throw error;
      resumes.spend(error);
    }
  }
}

function dropHandle(ops: RemoteFileSystemOps, target: WriteTarget): void {
  if (target.handleId !== null) closeHandle(ops, target.handleId);
  target.handleId = null;
}

function closeHandle(ops: RemoteFileSystemOps, handleId: string): void {
  ops.callOnce(Method.fsClose, { handleId }).catch(() => undefined);
}
