// What each request method does once its params are valid and the handshake is complete. The
// connection owns decoding, gating and concurrency; these functions own only the method semantics.
import {
  Method,
  type EnvironmentInfo,
  type MethodTable,
  type RequestMethod,
  type ServedMethod,
  type WriteStatus,
} from '../../../shared/protocol';
import type { z } from 'zod';
import { decodeBase64Strict } from './base64';
import type { FileHandles } from '../fs/file-handles';
import * as fs from '../fs/fs-service';
import { RpcError } from './rpc-error';
import type { Session, SessionRegistry } from '../processes/session';
import type { Principal } from '../listeners/principal';
import type { StreamTable } from '../streams/stream-table';
import { ListeningPortScanner, listeningPortsSupported } from '../ports/listening-ports';

export interface RequestContext {
  session: Session;
  /** Every session; reached only through the principal's view of it (`get`, `sessionsOf`). */
  registry: SessionRegistry;
  principal: Principal;
  files: FileHandles;
  streams: StreamTable;
  environmentInfo: EnvironmentInfo;
  /** Aborted when the connection goes away; ends long polls early. */
  signal: AbortSignal;
}

type Params<M extends RequestMethod> = z.output<(typeof MethodTable)[M]['params']>;
type Handler<M extends RequestMethod> = (params: Params<M>, ctx: RequestContext) => unknown;
type HandlerTable = { [M in Exclude<ServedMethod, 'initialize'>]: Handler<M> };

/** The word codex uses for each method family in its handshake-gate messages. */
export function methodFamily(method: string): string {
  if (method.startsWith('process/')) return 'exec';
  if (method.startsWith('fs/')) return 'filesystem';
  if (method.startsWith('stream/')) return 'stream';
  if (method.startsWith('ports/')) return 'ports';
  if (method === Method.environmentInfo) return 'environment info';
  if (method === Method.environmentStatus) return 'environment status';
  return method;
}

export const requestHandlers: HandlerTable = {
  [Method.environmentInfo]: (_params, ctx) => ctx.environmentInfo,
  [Method.environmentStatus]: () => ({ status: 'ready' }),

  [Method.processStart]: (params, ctx) => ctx.session.start(params),
  [Method.processRead]: (params, ctx) =>
    ctx.session
      .process(params.processId)
      .read(params.afterSeq ?? 0, params.maxBytes ?? null, params.waitMs ?? 0, ctx.signal),
  [Method.processWrite]: (params, ctx) => {
    // Raw in a data frame where binary frames were agreed, else base64 as codex sends it.
    const decoded =
      typeof params.chunk === 'string'
        ? decodeBase64Strict(params.chunk)
        : {
            ok: true as const,
            bytes: Buffer.from(params.chunk.buffer, params.chunk.byteOffset, params.chunk.byteLength),
          };
    if (!decoded.ok) throw RpcError.invalidParams(decoded.reason);
    if (params.writeId === '') throw RpcError.invalidParams('writeId must not be empty');
    const managed = ctx.session.find(params.processId);
    let status: WriteStatus;
    if (managed) status = managed.write(decoded.bytes, params.writeId);
    else status = ctx.session.isStarting(params.processId) ? 'starting' : 'unknownProcess';
    return { status };
  },
  [Method.processCloseStdin]: (params, ctx) => {
    const managed = ctx.session.find(params.processId);
    let status: WriteStatus;
    if (managed) status = managed.closeStdin();
    else status = ctx.session.isStarting(params.processId) ? 'starting' : 'unknownProcess';
    return { status };
  },
  [Method.processSignal]: (params, ctx) => {
    ctx.session.find(params.processId)?.signal(params.signal);
    return {};
  },
  [Method.processTerminate]: (params, ctx) => ({
    running: ctx.session.find(params.processId)?.terminate() ?? false,
  }),
  [Method.processResize]: (params, ctx) => {
    const managed = ctx.session.process(params.processId);
    if (!managed.tty) throw RpcError.invalidRequest(`process ${params.processId} has no terminal to resize`);
    managed.resize(params.cols, params.rows);
    return {};
  },

  [Method.sessionList]: (_params, ctx) => ({
    sessions: ctx.registry.sessionsOf(ctx.principal).map((session) => session.summary(ctx.session)),
  }),
  [Method.sessionEnd]: (_params, ctx) => {
    ctx.registry.end(ctx.session);
    return {};
  },
  [Method.sessionSubscribe]: (_params, ctx) => {
    ctx.session.subscribed = true;
    return {};
  },
  [Method.processAttach]: (params, ctx) => {
    const owner = ctx.registry.get(params.sessionId, ctx.principal);
    if (!owner) throw RpcError.invalidRequest(`unknown session id ${params.sessionId}`);
    const managed = owner.findOwn(params.processId);
    if (!managed) throw RpcError.unknownProcess(params.processId);
    ctx.session.attachTo(managed, params.attachId);
    return owner.summary(null).processes.find((p) => p.processId === params.processId)!;
  },
  [Method.processDetach]: (params, ctx) => {
    ctx.session.detachFrom(params.processId);
    return {};
  },
  [Method.processKeep]: (params, ctx) => {
    const managed = ctx.session.attachedProcess(params.processId);
    const owner = ctx.registry.ownerOf(managed, ctx.principal);
    // The owner may have reaped it already: nobody else decides its life then; it stays attached.
    if (!owner) throw RpcError.invalidRequest(`process ${params.processId} has no owner to take it from`);
    ctx.session.adopt(params.processId, owner);
    return {};
  },

  [Method.fsReadFile]: (params) => fs.fsReadFile(params.path),
  [Method.fsWriteFile]: (params) => fs.fsWriteFile(params),
  [Method.fsCreateDirectory]: (params) => fs.fsCreateDirectory(params),
  [Method.fsGetMetadata]: (params) => fs.fsGetMetadata(params.path),
  [Method.fsReadDirectory]: (params) => fs.fsReadDirectory(params.path),
  [Method.fsRemove]: (params) => fs.fsRemove(params),
  [Method.fsCopy]: (params) => fs.fsCopy(params),
  [Method.fsRename]: (params) => fs.fsRename(params),
  [Method.fsCanonicalize]: (params) => fs.fsCanonicalize(params.path),
  [Method.fsWalk]: (params) => fs.fsWalk(params),
  [Method.fsOpen]: async (params, ctx) => {
    await ctx.files.open(params.handleId, params.path, params.mode ?? 'read');
    return { handleId: params.handleId };
  },
  [Method.fsReadBlock]: (params, ctx) => ctx.files.readBlock(params.handleId, params.offset, params.len),
  [Method.fsWriteBlock]: async (params, ctx) => {
    await ctx.files.writeBlock(params.handleId, params.offset, params.chunk);
    return {};
  },
  [Method.fsClose]: async (params, ctx) => {
    await ctx.files.close(params.handleId);
    return {};
  },

  [Method.streamOpen]: (params, ctx) => ctx.streams.open(params),

  [Method.portsListening]: async () => {
    if (!listeningPortsSupported())
      throw RpcError.invalidRequest(`ports/listening is not available on ${process.platform}`);
    scanner ??= new ListeningPortScanner();
    return { ports: await scanner.scan() };
  },
};

/** One per server process: what it remembers of sockets' owners is the host's, not a session's. */
let scanner: ListeningPortScanner | null = null;
