// Auto-forwarding in the AppService against Tether's real ws server: a dev-server-like node process
// started through processes.start prints its localhost URL (coloured, as vite does); the app
// forwards that port at once (forwards.detected, not kept in the config), a GET through the local
// port returns its page, and when the process ends the forward is gone and its port released.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { httpGet, outcome, portOf, tcpServer } from '../../support/forward-peers';
import { printedPorts } from '../../../electron/app/forwarding/printed-ports';
import { listeningPortsOf } from '../../../shared/listening-sockets';
import { createHarness, outputOf, waitFor, type Harness } from './app-harness';

let server: StartedServer;
let h: Harness;

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  h = await createHarness({ autoConnect: false });
});
afterAll(async () => {
  await h.close();
  await server.stop();
});

// Listens on a free port, then says where in vite's words and colours (the port in bold).
const DEV_SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => res.end('<h1>dev page</h1>'));
s.listen(0, '127.0.0.1', () => {
  console.log('  VITE ready\\n  ➜  Local:   http://localhost:\\x1b[1m' + s.address().port + '\\x1b[22m/');
});
process.on('SIGTERM', () => process.exit(0));
`;

describe('ports printed by processes', () => {
  it('reads the ports of localhost URLs, not of other hosts or versions', () => {
    expect(
      printedPorts(
        'http://localhost:5173/ and 127.0.0.1:8080, [::1]:4000 0.0.0.0:3000\n' +
          'http://localhost:\x1b[1m5173\x1b[22m/ example.com:81 mylocalhost:82 v1.2.3.4:83 127.0.0.1:99999',
      ),
    ).toEqual([5173, 8080, 4000, 3000]);
  });

  it('reads the listening ports on loopback or any address from /proc/net/tcp and tcp6', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1',
      '   1: 00000000:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 2 1',
      '   2: 0A00020F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 3 1',
      '   3: 0100007F:1435 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 4 1',
    ].join('\n');
    expect(listeningPortsOf(tcp)).toEqual([3000, 5173]);
    const tcp6 = [
      '  sl  local_address                         remote_address                        st',
      '   0: 00000000000000000000000001000000:0FA0 00000000000000000000000000000000:0000 0A',
      '   1: 00000000000000000000000000000000:2328 00000000000000000000000000000000:0000 0A',
      '   2: 0000000000000000FFFF00000100007F:2329 00000000000000000000000000000000:0000 0A',
      '   3: 000080FE00000000FF005450B6AC0CFE:232A 00000000000000000000000000000000:0000 0A',
    ].join('\n');
    expect(listeningPortsOf(tcp6)).toEqual([4000, 9000, 9001]);
  });

  it('forwards the port a started process prints, serves its page, and drops it when it ends', async () => {
    const envId = (
      await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: server.url! },
        token: server.token,
      })
    ).id;
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
      'connected',
    );
    // The host's listening ports (this machine's: the server runs here), through fs/readFile.
    const listener = await tcpServer('127.0.0.1', (socket) => socket.end());
    try {
      expect((await h.invoke('forwards.listening', { envId })).map((l) => l.port)).toContain(
        portOf(listener),
      );
    } finally {
      listener.close();
    }
    const dev = await h.invoke('processes.start', {
      envId,
      argv: [process.execPath, '-e', DEV_SERVER],
      cwd: server.home,
      tty: true,
    });
    await waitFor(() => h.eventsNamed('forwards.detected').length > 0, 'the port detected', 10_000);
    const [forward] = h.eventsNamed('forwards.detected')[0]!.forwards;
    expect(forward).toMatchObject({
      envId,
      host: 'localhost',
      auto: true,
      state: 'forwarding',
    });
    // Its URL is printed within milliseconds of its listen(); a socket scan may, rarely, see it first.
    expect(['printedUrl', 'listeningSocket']).toContain(forward!.foundBy);
    expect(forward!.label).toContain('node');
    // A scan of the host's sockets (its process runs, so they are polled) names who listens.
    await waitFor(
      async () => (await h.invoke('forwards.list', { envId }))[0]?.process?.name === 'node',
      'its listener named',
    );
    expect(await httpGet(forward!.boundPort!)).toBe('<h1>dev page</h1>');
    // Not kept: an auto forward lives with its process, and a restart would find nothing of it.
    const files = await readdir(h.dataDir, { recursive: true, withFileTypes: true });
    const saved = await Promise.all(
      files
        .filter((f) => f.isFile())
        // A temp file of an atomic save (the sessions file, written as output comes) may be renamed
        // away between the listing and its read.
        .map((f) => readFile(path.join(f.parentPath, f.name), 'latin1').catch(() => '')),
    );
    expect(saved.some((text) => text.includes(envId))).toBe(true);
    expect(saved.some((text) => text.includes(forward!.id))).toBe(false);

    await h.invoke('processes.signal', { envId, processId: dev.processId, signal: 'terminate' });
    await waitFor(
      async () => (await h.invoke('forwards.list', { envId })).length === 0,
      'the forward dropped',
    );
    expect((await outcome(forward!.boundPort!)).how).toBe('ECONNREFUSED');
    expect(h.eventsNamed('forwards.detected')).toHaveLength(1);
  });
  it("leaves Local's printed ports alone: they already work on this machine", async () => {
    await h.invoke('environments.connect', { id: 'local' });
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === 'local')?.link.kind === 'connected',
      'Local connected',
    );
    const before = h.eventsNamed('forwards.detected').length;
    const dev = await h.invoke('processes.start', {
      envId: 'local',
      argv: [process.execPath, '-e', DEV_SERVER],
      tty: true,
    });
    await waitFor(() => outputOf(h, dev.processId).includes('http://localhost:'), 'the URL printed');
    // The output after the URL has been through the watcher too: a forward would have been made by now.
    await h.invoke('processes.write', { envId: 'local', processId: dev.processId, data: 'x' });
    await waitFor(() => outputOf(h, dev.processId).includes('x'), 'the echo after the URL');
    expect(h.eventsNamed('forwards.detected')).toHaveLength(before);
    expect(await h.invoke('forwards.list', { envId: 'local' })).toEqual([]);
    await h.invoke('processes.signal', { envId: 'local', processId: dev.processId, signal: 'terminate' });
  });
});
