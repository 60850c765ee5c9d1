// The "Node ws carrying the same JSON+base64 frames" ceiling: a standalone process that answers a
// `start` message by streaming `process/output` notifications (base64 chunks, as exec-servers send
// them) of a payload, then `process/closed`, with ws backpressure. No process, no protocol state.
// With `binary`, the chunks go as raw binary messages instead (no JSON at all): the ceiling of a
// binary stream. The end is the same `process/closed` text message.
// Run: node --import tsx frame-server.ts <zeros|ansi> <bytes> <chunkBytes> [json|binary]; prints its URL.
import { WebSocketServer, type WebSocket } from 'ws';
import { payloadBytes, type PayloadKind } from './payload';

/** Wait for the socket to take the frames sent so far once this many are in flight. */
const FRAMES_PER_FLUSH = 32;

const [kindArg, bytesArg, chunkArg, encodingArg = 'json'] = process.argv.slice(2);
const binary = encodingArg === 'binary';
const kind = kindArg as PayloadKind;
const total = Number(bytesArg);
const chunkBytes = Number(chunkArg);
if (
  (kind !== 'zeros' && kind !== 'ansi') ||
  !(total > 0) ||
  !(chunkBytes > 0) ||
  (encodingArg !== 'json' && !binary)
) {
  console.error('usage: frame-server.ts <zeros|ansi> <bytes> <chunkBytes> [json|binary]');
  process.exit(2);
}
/** The payload cycles through this many distinct chunks, each encoded once up front. */
const DISTINCT_CHUNKS = 8;
const payload = payloadBytes(kind, DISTINCT_CHUNKS * chunkBytes);
const encoded = Array.from({ length: DISTINCT_CHUNKS }, (_, i) =>
  payload.subarray(i * chunkBytes, (i + 1) * chunkBytes).toString('base64'),
);

function frame(seq: number, chunk: string): string {
  return JSON.stringify({
    method: 'process/output',
    params: { processId: 'bench', seq, stream: 'stdout', chunk },
  });
}

async function stream(ws: WebSocket): Promise<void> {
  let sent = 0;
  let seq = 0;
  while (sent < total) {
    const size = Math.min(chunkBytes, total - sent);
    const slot = seq % DISTINCT_CHUNKS;
    seq += 1;
    sent += size;
    let message: string | Buffer;
    if (binary) message = payload.subarray(slot * chunkBytes, slot * chunkBytes + size);
    else {
      const chunk = size === chunkBytes ? encoded[slot]! : payload.subarray(0, size).toString('base64');
      message = frame(seq, chunk);
    }
    if (seq % FRAMES_PER_FLUSH === 0)
      await new Promise<void>((resolve) => ws.send(message, { binary }, () => resolve()));
    else ws.send(message, { binary });
  }
  ws.send(JSON.stringify({ method: 'process/closed', params: { processId: 'bench', seq: seq + 1 } }));
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('listening', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`ws://127.0.0.1:${address.port}\n`);
});
server.on('connection', (ws) => {
  ws.on('message', () => void stream(ws));
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
