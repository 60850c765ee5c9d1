// A plain codex-protocol client: what any codex client does to run a command over ws and read its
// output, asking for no Tether capability (so no binary frames and no flow control): initialize,
// initialized, process/start, then decode every base64 chunk until process/closed, timed.
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { elapsedMs } from './stats';

interface Message {
  id?: number;
  method?: string;
  error?: { message: string };
  params?: { chunk?: string };
}

export async function runPlainClient(
  url: string,
  headers: Record<string, string>,
  argv: string[],
  cwd: string,
): Promise<{ bytes: number; ms: number }> {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false, maxPayload: 0 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    const start = process.hrtime.bigint();
    return await new Promise((resolve, reject) => {
      let bytes = 0;
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as Message;
        if (message.error) reject(new Error(`request ${message.id} failed: ${message.error.message}`));
        else if (message.id === 1) {
          ws.send(JSON.stringify({ method: 'initialized', params: {} }));
          ws.send(
            JSON.stringify({
              id: 2,
              method: 'process/start',
              params: {
                processId: 'plain',
                argv,
                cwd: pathToFileURL(cwd).href,
                env: {},
                tty: false,
                arg0: null,
              },
            }),
          );
        } else if (message.method === 'process/output') {
          bytes += Buffer.from(message.params?.chunk ?? '', 'base64').length;
        } else if (message.method === 'process/closed') resolve({ bytes, ms: elapsedMs(start) });
      });
      ws.once('close', () => reject(new Error('the server closed the connection early')));
      ws.send(JSON.stringify({ id: 1, method: 'initialize', params: { clientName: 'plain-codex-client' } }));
    });
  } finally {
    ws.terminate();
  }
}
