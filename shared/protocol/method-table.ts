// One table mapping each request method to its params and result schemas, so the server's
// dispatcher and the client's typed `call` derive from the same declaration.
import type { z } from 'zod';
import { Method } from './methods';
import * as S from './schemas';

export const MethodTable = {
  [Method.initialize]: { params: S.InitializeParams, result: S.InitializeResult },
  [Method.environmentInfo]: { params: S.NoParams, result: S.EnvironmentInfo },
  [Method.environmentStatus]: { params: S.NoParams, result: S.EnvironmentStatusResult },
  [Method.processStart]: { params: S.ProcessStartParams, result: S.ProcessStartResult },
  [Method.processRead]: { params: S.ProcessReadParams, result: S.ProcessReadResult },
  [Method.processWrite]: { params: S.ProcessWriteParams, result: S.ProcessWriteResult },
  [Method.processSignal]: { params: S.ProcessSignalParams, result: S.EmptyResult },
  [Method.processTerminate]: { params: S.ProcessIdParams, result: S.ProcessTerminateResult },
  [Method.processResize]: { params: S.ProcessResizeParams, result: S.EmptyResult },
  [Method.processCloseStdin]: { params: S.ProcessIdParams, result: S.ProcessCloseStdinResult },
  [Method.fsReadFile]: { params: S.FsPathParams, result: S.FsReadFileResult },
  [Method.fsWriteFile]: { params: S.FsWriteFileParams, result: S.EmptyResult },
  [Method.fsCreateDirectory]: { params: S.FsCreateDirectoryParams, result: S.EmptyResult },
  [Method.fsGetMetadata]: { params: S.FsPathParams, result: S.FsMetadata },
  [Method.fsReadDirectory]: { params: S.FsPathParams, result: S.FsReadDirectoryResult },
  [Method.fsRemove]: { params: S.FsRemoveParams, result: S.EmptyResult },
  [Method.fsCopy]: { params: S.FsCopyParams, result: S.EmptyResult },
  [Method.fsRename]: { params: S.FsRenameParams, result: S.EmptyResult },
  [Method.fsCanonicalize]: { params: S.FsPathParams, result: S.FsCanonicalizeResult },
  [Method.fsWalk]: { params: S.FsWalkParams, result: S.FsWalkResult },
  [Method.fsOpen]: { params: S.FsOpenParams, result: S.FsOpenResult },
  [Method.fsReadBlock]: { params: S.FsReadBlockParams, result: S.FsReadBlockResult },
  [Method.fsWriteBlock]: { params: S.FsWriteBlockParams, result: S.EmptyResult },
  [Method.fsClose]: { params: S.FsHandleParams, result: S.EmptyResult },
  [Method.sessionList]: { params: S.NoParams, result: S.SessionListResult },
  [Method.sessionSubscribe]: { params: S.NoParams, result: S.EmptyResult },
  [Method.sessionEnd]: { params: S.NoParams, result: S.EmptyResult },
  [Method.processAttach]: { params: S.ProcessAttachParams, result: S.ProcessSummary },
  [Method.processDetach]: { params: S.ProcessIdParams, result: S.EmptyResult },
  [Method.processKeep]: { params: S.ProcessIdParams, result: S.EmptyResult },
  [Method.streamOpen]: { params: S.StreamOpenParams, result: S.StreamOpenResult },
  [Method.httpRequest]: { params: S.HttpRequestParams, result: S.HttpRequestResult },
  [Method.portsListening]: { params: S.NoParams, result: S.PortsListeningResult },
} as const;

export type RequestMethod = keyof typeof MethodTable;
export type ParamsOf<M extends RequestMethod> = z.input<(typeof MethodTable)[M]['params']>;
export type ResultOf<M extends RequestMethod> = z.output<(typeof MethodTable)[M]['result']>;

/** Methods the client may call that Tether's own server does not serve (it answers -32601). */
type ClientOnlyMethod = typeof Method.httpRequest;
/** The methods Tether's server serves. */
export type ServedMethod = Exclude<RequestMethod, ClientOnlyMethod>;

/** Whether Tether's server serves `method` (a codex method only its client calls is not served). */
export function isServedMethod(method: string): method is ServedMethod {
  return Object.prototype.hasOwnProperty.call(MethodTable, method) && method !== Method.httpRequest;
}
