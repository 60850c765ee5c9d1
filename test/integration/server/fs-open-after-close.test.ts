// An `fs/open` still in flight when its connection closes must not leave the file open in the
// server. Deterministic with real fds: the server's libuv pool (UV_THREADPOOL_SIZE) is held by
// fs/writeFile calls blocked opening FIFOs, so the open cannot run until the test frees the pool,
// which it does only once the server has closed the opener's socket. Then the open completes (it
// creates the file, mode `replace`), and the server's /proc/<pid>/fd must drop the file again.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { openFds, openSocketCount } from '../../support/proc-fds';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

/** The server's thread pool size, and so how many blocked FIFO opens it takes to hold it. */
const POOL_THREADS = 2;
const WAIT_MS = 15_000;

let server: StartedServer;
let dir: string;
const peers: RpcPeer[] = [];
const readers: number[] = [];
beforeEach(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tether-open-close-')));
  server = await startServer('tether', 'ws', { env: { UV_THREADPOOL_SIZE: String(POOL_THREADS) } });
});
afterEach(async () => {
  for (const fd of readers.splice(0)) closeSync(fd);
  for (const peer of peers.splice(0)) await peer.close().catch(() => undefined);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('closes a file whose fs/open completes after the connection closed', async () => {
  const pid = server.child.pid!;
  const uri = (file: string): string => pathToFileURL(file).href;
  const fifos = Array.from({ length: POOL_THREADS }, (_, i) => path.join(dir, `fifo-${i}`));
  expect(spawnSync('mkfifo', fifos).status).toBe(0);

  const blocker = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  peers.push(blocker);
  await blocker.handshake();
  // Each write blocks a pool thread in open(2) until the FIFO has a reader.
  const writes = fifos.map((fifo) =>
    blocker.request('fs/writeFile', { path: uri(fifo), dataBase64: 'eA==' }, { timeoutMs: WAIT_MS * 2 }),
  );
  await blocker.call('environment/info');
  const socketsBefore = openSocketCount(pid);

  const opener = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  await opener.handshake();
  const target = path.join(dir, 'opened-after-close.bin');
  opener.sendRequest('fs/open', { handleId: 'late', path: uri(target), mode: 'replace' });
  await opener.close();
  await waitFor(() => openSocketCount(pid) === socketsBefore, 'the server to close the connection', WAIT_MS);
  expect(existsSync(target)).toBe(false);

  for (const fifo of fifos) readers.push(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
  for (const response of await Promise.all(writes)) expect(response.error).toBeUndefined();
  await waitFor(() => existsSync(target), 'the late open to create the file', WAIT_MS);
  await waitFor(() => !openFds(pid).includes(target), 'the server to close the late-opened file', WAIT_MS);
});
