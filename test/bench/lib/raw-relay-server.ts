// The serving half of the raw binary WebSocket ceiling (see raw-relay-client.mjs): for each
// connection it runs the program named in the first message and forwards every read of its stdout
// as one binary message, as an exec-server would with its output, but with no protocol at all.
// Sending pauses the pipe above the exec-server's outbound high-water mark and resumes below its
// low one, so memory stays bounded alike. Ends with a text message `end` once stdout is done.
// Run: node --import tsx raw-relay-server.ts; prints its URL.
import { spawn } from 'node:child_process';
import { WebSocketServer, type WebSocket } from 'ws';
import { OUTBOUND_HIGH_WATERMARK_BYTES, OUTBOUND_LOW_WATERMARK_BYTES } from '../../../electron/server/limits';

function relay(ws: WebSocket, argv: string[]): void {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let unsent = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    unsent += chunk.length;
    if (unsent > OUTBOUND_HIGH_WATERMARK_BYTES) child.stdout.pause();
    ws.send(chunk, { binary: true }, () => {
      unsent -= chunk.length;
      if (unsent < OUTBOUND_LOW_WATERMARK_BYTES) child.stdout.resume();
    });
  });
  child.stdout.once('end', () => ws.send('end'));
  ws.once('close', () => child.kill('SIGKILL'));
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('listening', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`ws://127.0.0.1:${address.port}\n`);
});
server.on('connection', (ws) => {
  ws.once('message', (data: Buffer) => relay(ws, JSON.parse(data.toString('utf8')) as string[]));
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
