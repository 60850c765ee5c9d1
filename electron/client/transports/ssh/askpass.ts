// The SSH_ASKPASS side channel of one bootstrap: a small executable in the private directory that
// ssh runs for every question, and the unix socket it reports to. The helper proves it was started
// by our ssh with a per-bootstrap secret from its environment; the answer (or a refusal) goes back.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { classifyPrompt, type AskpassRequest } from './prompt-kind';
import type { PrivateDir } from './private-dir';
import { shQuote } from '../../../../shared/shell-quote';

/** A question (or notice) from ssh; resolves to the answer, or null to refuse it. */
export type AskpassHandler = (request: AskpassRequest) => Promise<string | null>;

/** Largest request line accepted from a helper (ssh's prompts are a few hundred bytes). */
const MAX_REQUEST_BYTES = 64 * 1024;

// Runs under plain node or Electron-as-node, so it is CommonJS with nothing but node:net. It exits 1
// on any refusal, which ssh takes as "no answer".
const HELPER_SOURCE = `'use strict';
const net = require('node:net');
const socket = net.connect(process.env.TETHER_ASKPASS_SOCKET || '');
let reply = '';
socket.setEncoding('utf8');
socket.on('connect', () => {
  const request = {
    secret: process.env.TETHER_ASKPASS_SECRET || '',
    text: process.argv[2] || '',
    askpassPrompt: process.env.SSH_ASKPASS_PROMPT || '',
  };
  socket.write(JSON.stringify(request) + '\\n');
});
socket.on('data', (data) => { reply += data; });
socket.on('end', () => {
  let answer = null;
  try { answer = JSON.parse(reply).answer; } catch {}
  if (typeof answer !== 'string') process.exit(1);
  process.stdout.write(answer + '\\n', () => process.exit(0));
});
socket.on('error', () => process.exit(1));
`;

export class AskpassServer {
  private readonly secret = randomBytes(32).toString('hex');
  private readonly socketPath: string;
  private readonly scriptPath: string;
  private readonly server: net.Server;

  private constructor(dir: PrivateDir, handler: AskpassHandler) {
    this.socketPath = dir.file('ap.sock');
    this.scriptPath = dir.file('askpass');
    const helperPath = dir.file('askpass.cjs');
    writeFileSync(helperPath, HELPER_SOURCE, { mode: 0o600 });
    // process.execPath is node, or Electron's binary, which ELECTRON_RUN_AS_NODE turns into node.
    writeFileSync(
      this.scriptPath,
      `#!/bin/sh\nELECTRON_RUN_AS_NODE=1 exec ${shQuote(process.execPath)} ${shQuote(helperPath)} "$@"\n`,
      { mode: 0o700 },
    );
    this.server = net.createServer((socket) => this.serve(socket, handler));
  }

  static async start(dir: PrivateDir, handler: AskpassHandler): Promise<AskpassServer> {
    const askpass = new AskpassServer(dir, handler);
    await new Promise<void>((resolve, reject) => {
      askpass.server.once('error', reject);
      askpass.server.listen(askpass.socketPath, () => {
        askpass.server.off('error', reject);
        resolve();
      });
    });
    return askpass;
  }

  /** Environment that makes ssh ask every question through this server, never on a terminal. */
  env(): Record<string, string> {
    return {
      SSH_ASKPASS: this.scriptPath,
      SSH_ASKPASS_REQUIRE: 'force',
      TETHER_ASKPASS_SOCKET: this.socketPath,
      TETHER_ASKPASS_SECRET: this.secret,
    };
  }

  close(): void {
    this.server.close();
  }

  private serve(socket: net.Socket, handler: AskpassHandler): void {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (data: string) => {
      received += data;
      if (received.length > MAX_REQUEST_BYTES) socket.destroy();
      const newline = received.indexOf('\n');
      if (newline < 0) return;
      socket.removeAllListeners('data');
      const request = this.parse(received.slice(0, newline));
      if (!request) {
        socket.end();
        return;
      }
      handler(request).then(
        (answer) => socket.end(answer === null ? '{}' : JSON.stringify({ answer })),
        () => socket.end('{}'),
      );
    });
  }

  /** The helper's request, or null if it does not carry our secret. */
  private parse(line: string): AskpassRequest | null {
    let raw: { secret?: unknown; text?: unknown; askpassPrompt?: unknown };
    try {
      raw = JSON.parse(line) as typeof raw;
    } catch {
      return null;
    }
    const given = Buffer.from(typeof raw.secret === 'string' ? raw.secret : '');
    const expected = Buffer.from(this.secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const text = typeof raw.text === 'string' ? raw.text : '';
    return classifyPrompt(text, typeof raw.askpassPrompt === 'string' ? raw.askpassPrompt : '');
  }
}
