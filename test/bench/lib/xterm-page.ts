// The pixel ceiling's page: a loopback HTTP server that serves the app's own @xterm/xterm build (and
// its WebGL addon) and a page that writes given bytes straight into one terminal, timing until
// xterm's last write callback. The terminal is set up like the app pane it is compared with: same
// columns, rows, font and renderer (a smaller terminal draws far fewer pixels per frame). The page
// can also type into an echo socket on the same server (the keystroke floor: xterm.js and Chromium
// alone, no app, no pty). Stopped with close().
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { REPO_ROOT } from '../../support/exec-servers';

const MODULES = path.join(REPO_ROOT, 'node_modules', '@xterm');
const ASSETS: Record<string, { file: string; type: string }> = {
  '/xterm.js': { file: path.join(MODULES, 'xterm', 'lib', 'xterm.js'), type: 'text/javascript' },
  '/xterm.css': { file: path.join(MODULES, 'xterm', 'css', 'xterm.css'), type: 'text/css' },
  '/addon-webgl.js': {
    file: path.join(MODULES, 'addon-webgl', 'lib', 'addon-webgl.js'),
    type: 'text/javascript',
  },
};

/** Bytes handed to term.write at a time, as the app's output flow hands over batches. */
const PAGE_WRITE_CHUNK = 65_536;

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/xterm.css">
<script src="/xterm.js"></script><script src="/addon-webgl.js"></script></head>
<body style="margin:0"><div id="t" style="width:1600px;height:1000px"></div><script>
let term = null;
window.setup = (o) => {
  term = new Terminal({ scrollback: o.scrollback, fontSize: o.fontSize, fontFamily: o.fontFamily });
  term.open(document.getElementById('t'));
  term.resize(o.cols, o.rows);
  if (!o.webgl) return 'dom';
  try { term.loadAddon(new WebglAddon.WebglAddon()); return 'webgl'; } catch (e) { return 'dom'; }
};
window.feed = async (base64, total) => {
  const block = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const size = Math.min(${PAGE_WRITE_CHUNK}, total - sent);
    const offset = sent % block.length;
    const chunk = offset + size <= block.length ? block.subarray(offset, offset + size)
      : Uint8Array.from({ length: size }, (_, i) => block[(offset + i) % block.length]);
    sent += size;
    await new Promise((resolve) => term.write(chunk, resolve));
  }
  return performance.now() - start;
};
// What is typed goes to the echo socket as binary messages, and what comes back is written: the
// same shape as the app's bridge (bytes both ways), with nothing behind it.
window.openEcho = (url) => new Promise((resolve, reject) => {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const encoder = new TextEncoder();
  socket.onopen = () => { term.onData((d) => socket.send(encoder.encode(d))); term.focus(); resolve(); };
  socket.onerror = () => reject(new Error('the echo socket failed'));
  socket.onmessage = (event) => term.write(new Uint8Array(event.data));
});
</script></body></html>`;

/** How the ceiling's terminal is set up: like the app pane it is compared with. */
export interface CeilingTerminal {
  cols: number;
  rows: number;
  fontSize: number;
  fontFamily: string;
  scrollback: number;
  /** Use the WebGL addon (as the app pane does), else xterm's DOM renderer. */
  webgl: boolean;
}

export interface XtermPageServer {
  url: string;
  /** The echo socket: every message is sent straight back (only pages of this server may connect). */
  echoUrl: string;
  close(): Promise<void>;
}

export async function startXtermPage(): Promise<XtermPageServer> {
  const server = http.createServer((request, response) => {
    const asset = ASSETS[request.url ?? ''];
    if (asset) {
      response.writeHead(200, { 'content-type': asset.type });
      response.end(readFileSync(asset.file));
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  let origin = '';
  const echo = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  echo.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/echo' || request.headers.origin !== origin) return socket.destroy();
    echo.handleUpgrade(request, socket, head, (ws) => echo.emit('connection', ws, request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    echoUrl: `ws://127.0.0.1:${port}/echo`,
    close: async () => {
      for (const client of echo.clients) client.terminate();
      echo.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
