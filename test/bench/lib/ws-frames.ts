// The ws frame ceiling's reading side: connects to frame-server.ts, asks it to stream, parses every
// JSON frame and decodes its base64 chunk, as a client must, and times it until `process/closed`.
import WebSocket from 'ws';
import { elapsedMs } from './stats';

export async function readWsFrames(url: string): Promise<{ bytes: number; ms: number }> {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const start = process.hrtime.bigint();
  const done = new Promise<{ bytes: number; ms: number }>((resolve, reject) => {
    let bytes = 0;
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as {
        method: string;
        params: { chunk?: string };
      };
      if (message.method === 'process/output')
        bytes += Buffer.from(message.params.chunk ?? '', 'base64').length;
      else if (message.method === 'process/closed') resolve({ bytes, ms: elapsedMs(start) });
    });
    ws.once('close', () => reject(new Error('frame server closed the connection early')));
  });
  ws.send('start');
  try {
    return await done;
  } finally {
    ws.terminate();
  }
}
