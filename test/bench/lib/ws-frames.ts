// The ws frame ceilings' reading side: connects to frame-server.ts, asks it to stream, parses every
// JSON frame and decodes its base64 chunk, as a client must (or, for its binary stream, counts the
// raw binary messages), and times it until `process/closed`.
import WebSocket from 'ws';
import { elapsedMs } from './stats';

export async function readWsFrames(url: string): Promise<{ bytes: number; ms: number }> {
  return readFrames(url, (data, binary) => {
    if (binary) return data.length;
    const message = JSON.parse(data.toString('utf8')) as { method: string; params: { chunk?: string } };
    if (message.method === 'process/output') return Buffer.from(message.params.chunk ?? '', 'base64').length;
    return message.method === 'process/closed' ? 'closed' : 0;
  });
}

async function readFrames(
  url: string,
  read: (data: Buffer, binary: boolean) => number | 'closed',
): Promise<{ bytes: number; ms: number }> {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const start = process.hrtime.bigint();
  const done = new Promise<{ bytes: number; ms: number }>((resolve, reject) => {
    let bytes = 0;
    ws.on('message', (data: Buffer, binary: boolean) => {
      const got = read(data, binary);
      if (got === 'closed') resolve({ bytes, ms: elapsedMs(start) });
      else bytes += got;
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
