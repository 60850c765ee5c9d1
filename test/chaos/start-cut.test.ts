// A process/start whose answer is lost with the connection is not replayed (it could start the
// process twice); the caller gets a clear 'disconnected' error, and the client terminates the
// half-started process once it has reconnected, so no orphan keeps running. Against both servers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClientError } from '../../electron/client/client-error';
import { type ServerImpl } from '../support/exec-servers';
import { waitFor } from '../support/wait';
import { within } from './process-follower';
import { chaosRig } from './rig';
import { pidAlive } from '../support/pids';

/** Answers are held this long, so the cut lands after the server started the process but before its answer arrives. */
const ANSWER_DELAY_MS = 2_000;

describe.each<ServerImpl>(['tether', 'codex'])('a cut while process/start is in flight (%s)', (impl) => {
  const rig = chaosRig();

  it('fails the start clearly and leaves no orphan behind', async () => {
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy);
    await client.connect();
    const pidFile = path.join(server.home, 'started.pid');

    proxy.setLatency(ANSWER_DELAY_MS, 'downstream');
    const start = client
      .startProcess({
        argv: ['/bin/sh', '-c', `echo $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}; exec sleep 60`],
        cwd: server.home,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        tty: false,
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await waitFor(() => existsSync(pidFile), 'the server to start the process', 10_000);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(pidAlive(pid)).toBe(true);
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.restore();

    const error = await within(start, 15_000, 'the start to settle');
    expect(isClientError(error, 'disconnected'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/not retried/);
    await waitFor(() => !pidAlive(pid), `the orphan (pid ${pid}) to be terminated`, 20_000);
    await waitFor(() => client.state.kind === 'connected', 'the client to reconnect', 20_000);
  });
});
