// The ground truth a client's gap event is checked against: what an exec-server still retains of
// one process. It resumes the client's detached session on its own connection straight to the
// server (not through the proxy the client is cut off by), reads every retained chunk, and detaches.
import type { StartedServer } from './exec-servers';
import { RpcPeer } from './rpc-peer';

/** -32010: the server still sees the previous connection attached; it lets go once it notices. */
const ALREADY_ATTACHED = -32010;
const RESUME_RETRY_MS = 100;
const FOLLOW_WAIT_MS = 1_000;

interface RetainedChunk {
  seq: number;
  stream: string;
  data: Buffer;
}

export interface RetainedOutput {
  /** Every output chunk the server still holds, oldest first. */
  chunks: RetainedChunk[];
  /** The seq the server will give its next event: everything below it happened before the snapshot. */
  nextSeq: number;
  exitCode: number | null;
  closed: boolean;
}

interface ReadResult {
  chunks: Array<{ seq: number; stream: string; chunk: string }>;
  nextSeq: number;
  exitCode: number | null;
  closed: boolean;
}

/**
 * Resumes `sessionId` on `server`'s own URL, with its token (retrying while the server still holds the client's dead
 * connection), waits until the process closed if `until` says so, then returns everything retained
 * from seq 0. The session is detached again when this returns, so the client can resume it.
 */
export async function readRetainedOutput(
  server: Pick<StartedServer, 'url' | 'authHeaders'>,
  sessionId: string,
  processId: string,
  until: 'now' | 'closed',
  timeoutMs = 60_000,
): Promise<RetainedOutput> {
  const deadline = Date.now() + timeoutMs;
  const peer = await resume(server, sessionId, deadline);
  try {
    const read = (afterSeq: number, waitMs: number) =>
      peer.call<ReadResult>(
        'process/read',
        { processId, afterSeq, maxBytes: null, waitMs },
        waitMs + Math.max(0, deadline - Date.now()),
      );
    if (until === 'closed') {
      // Follow the process to its end; what is read on the way is not kept, the snapshot below is.
      for (let afterSeq = 0; ;) {
        const result = await read(afterSeq, FOLLOW_WAIT_MS);
        if (result.closed) break;
        if (Date.now() > deadline)
          throw new Error(`process ${processId} did not close within ${timeoutMs} ms`);
        afterSeq = result.chunks.at(-1)?.seq ?? afterSeq;
      }
    }
    const chunks: RetainedChunk[] = [];
    let last: ReadResult;
    let afterSeq = 0;
    do {
      last = await read(afterSeq, 0);
      for (const c of last.chunks) {
        chunks.push({ seq: c.seq, stream: c.stream, data: Buffer.from(c.chunk, 'base64') });
        afterSeq = c.seq;
      }
    } while (last.chunks.length > 0);
    return { chunks, nextSeq: last.nextSeq, exitCode: last.exitCode, closed: last.closed };
  } finally {
    await peer.close();
  }
}

async function resume(
  server: Pick<StartedServer, 'url' | 'authHeaders'>,
  sessionId: string,
  deadline: number,
): Promise<RpcPeer> {
  if (server.url === undefined) throw new Error('readRetainedOutput needs a ws server');
  for (;;) {
    const peer = await RpcPeer.connectWs(server.url, { headers: server.authHeaders() });
    const answer = await peer.request('initialize', {
      clientName: 'retained-output',
      resumeSessionId: sessionId,
    });
    if (!answer.error) {
      peer.notify('initialized', {});
      return peer;
    }
    await peer.close();
    if (answer.error.code !== ALREADY_ATTACHED || Date.now() > deadline) {
      throw new Error(`could not resume session ${sessionId}: ${answer.error.code} ${answer.error.message}`);
    }
    await new Promise((r) => setTimeout(r, RESUME_RETRY_MS));
  }
}
