// What `tether web` remembers between starts (web-address.ts): the port, path and session survive a
// restart in a 0600 file, an unreadable file means a fresh address, and the port is chosen as
// documented: `--port` wins and fails when taken; the remembered port is used when free and falls
// back to a free one when another program holds it. Real sockets on 127.0.0.1.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listenOnRememberedPort,
  loadWebAddress,
  saveWebAddress,
  WEB_ADDRESS_FILE_NAME,
} from '../../../electron/web/web-address';
import { WebHostListenError } from '../../../electron/web/web-host';

let dir: string;
const servers: net.Server[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-web-address-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Listens on 127.0.0.1:`port` as the web host does, with its error for a taken port. */
function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new WebHostListenError('inUse', `port ${port} is in use`)
          : new WebHostListenError('other', error.message),
      ),
    );
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}

const portOf = (server: net.Server): number => (server.address() as net.AddressInfo).port;

/** A port that is free right now: listened on once, then released. */
async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const port = portOf(server);
  servers.splice(servers.indexOf(server), 1);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('web address: remembered in the data dir', () => {
  it('is fresh before the first start, then the same after a save, in a file only the user can read', async () => {
    const fresh = await loadWebAddress(dir);
    expect(fresh.port).toBeNull();
    expect(fresh.launch).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(fresh.session).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    // Two fresh ones never share a path or a session.
    const other = await loadWebAddress(dir);
    expect(other.launch).not.toBe(fresh.launch);
    expect(other.session).not.toBe(fresh.session);

    await saveWebAddress(dir, { ...fresh, port: 43_210 });
    expect(await loadWebAddress(dir)).toEqual({ ...fresh, port: 43_210 });
    expect(statSync(path.join(dir, WEB_ADDRESS_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it('starts afresh from a file it cannot use', async () => {
    const file = path.join(dir, WEB_ADDRESS_FILE_NAME);
    for (const text of [
      'not json',
      JSON.stringify({ version: 1, port: 80, launch: '../../etc', session: 'x'.repeat(32) }),
      JSON.stringify({ version: 2, port: 80, launch: 'a'.repeat(16), session: 'b'.repeat(32) }),
    ]) {
      writeFileSync(file, text);
      const loaded = await loadWebAddress(dir);
      expect(loaded.port, text).toBeNull();
      expect(loaded.launch, text).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    }
  });
});

describe('web address: which port', () => {
  it('takes a free one when nothing is remembered', async () => {
    const { host, fallbackFrom } = await listenOnRememberedPort(listenOn, undefined, null);
    expect(portOf(host)).toBeGreaterThan(0);
    expect(fallbackFrom).toBeUndefined();
  });

  it('listens on the remembered port when it is free', async () => {
    const remembered = await freePort();
    const { host, fallbackFrom } = await listenOnRememberedPort(listenOn, undefined, remembered);
    expect(portOf(host)).toBe(remembered);
    expect(fallbackFrom).toBeUndefined();
  });

  it('falls back to a free port, and says which one it could not have, when the remembered one is taken', async () => {
    const blocker = await listenOn(0);
    const remembered = portOf(blocker);
    const { host, fallbackFrom } = await listenOnRememberedPort(listenOn, undefined, remembered);
    expect(portOf(host)).not.toBe(remembered);
    expect(portOf(host)).toBeGreaterThan(0);
    expect(fallbackFrom).toBe(remembered);
  });

  it('keeps to a --port the user asked for: taken is an error, not a fallback', async () => {
    const blocker = await listenOn(0);
    const taken = portOf(blocker);
    const remembered = await freePort();
    await expect(listenOnRememberedPort(listenOn, taken, remembered)).rejects.toMatchObject({
      reason: 'inUse',
    });
    // --port 0 is a free port, not the remembered one.
    const { host } = await listenOnRememberedPort(listenOn, 0, remembered);
    expect(portOf(host)).not.toBe(remembered);
  });
});
