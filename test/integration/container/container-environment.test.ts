// Container environments against real podman containers (test/support/containers.ts): the server
// installed inside a container without Node over nothing but `podman exec -i`, reused by the next
// connect; `tether run --container` byte-exact with exit codes; a cut of the exec channel resumed
// with nothing lost; a stopped, restarted and removed container each said as such; two containers
// at once; the generic exec prefix; a container without glibc; uninstall. All containers of this
// file share one /root/.tether (a directory here), so the install happens once.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportSpec } from '../../../electron/client/api';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import {
  listContainers,
  startContainer,
} from '../../../electron/client/transports/container/container-engine';
import { batchSshArgv } from '../../../electron/client/transports/ssh/ssh-master';
import { SshTestRig, type SshdHost } from '../../support/sshd';
import { transportKind } from '../../../electron/client/transports/kinds';
import {
  bridgePids,
  containerName,
  containersAvailable,
  podman,
  removeContainers,
  runContainer,
  testImage,
} from '../../support/containers';
import { collect, untilFile, waitFor } from '../client/helpers';
import { ADOPTED_LOG_LINE } from '../../../electron/server/daemon/pipe-adoption';
import { recordingHooks, type RecordingHooks } from '../ssh/ssh-helpers';

const CLI = path.resolve('dist/cli.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-containers-'));
/** Mounted at /root/.tether in every container of this file. */
const tetherHome = path.join(dir, 'tether-home');
/** Mounted at /share: files the test and the container's processes both see. */
const share = path.join(dir, 'share');
const created: string[] = [];
let image = '';

async function newContainer(what: string, kind: 'glibc' | 'busybox' = 'glibc'): Promise<string> {
  const name = containerName(what);
  created.push(name);
  // Every container shares one Tether home, so one install serves them all; the one without glibc
  // then finds a record naming a node that cannot run there, as a home volume shared between
  // containers would hold.
  await runContainer(kind === 'glibc' ? image : await testImage('busybox'), name, {
    volumes: [
      [tetherHome, '/root/.tether'],
      [share, '/share'],
    ],
  });
  return name;
}

const spec = (
  container: string,
  extra: Partial<TransportSpec & { kind: 'container' }> = {},
): TransportSpec => ({
  kind: 'container',
  engine: 'podman',
  container,
  ...extra,
});

function client(
  transport: TransportSpec,
  hooks: RecordingHooks = recordingHooks(),
  resumeSessionId?: string,
) {
  return new RemoteExecServerClient({
    transport,
    ssh: hooks,
    clientName: 'container-test',
    ...(resumeSessionId ? { resumeSessionId } : {}),
  });
}

/** `tether run` with `args`; its stdout bytes and exit code. */
function tetherRun(args: string[]): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return tether('run', args);
}

function tether(
  command: string,
  args: string[],
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout: Buffer.concat(out), stderr, code }));
  });
}

const ADOPTED_LOG = `bridge: ${ADOPTED_LOG_LINE}`;

let main = '';
let rig: SshTestRig;
let sshHost: SshdHost;
beforeAll(async () => {
  if (!containersAvailable()) return;
  rig = new SshTestRig();
  sshHost = await rig.startHost({ alias: 'container-host' });
  rig.trustHost(sshHost);
  for (const sub of [tetherHome, share]) mkdirSync(sub);
  image = await testImage('glibc');
  main = await newContainer('main');
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await removeContainers(created);
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(containersAvailable())('container environments (podman)', () => {
  it('installs the server and a Node runtime inside a container without Node, then reuses them', async () => {
    const first = recordingHooks();
    const a = client(spec(main), first);
    try {
      await a.connect();
      expect(first.stages.map((s) => s.stage)).toEqual(
        expect.arrayContaining(['checking', 'installing', 'starting', 'connected']),
      );
      expect(first.installTotals().length).toBeGreaterThan(0);
      expect(readdirSync(path.join(tetherHome, 'runtime'))).toHaveLength(1);
      expect(first.logs.join('\n')).toMatch(/no node/);
    } finally {
      await a.close();
    }
    const second = recordingHooks();
    const b = client(spec(main), second);
    try {
      await b.connect();
      expect(second.stages.map((s) => s.stage)).not.toContain('installing');
      expect(second.stages.at(-1)?.stage).toBe('connected');
      // The warm connect is the checked bridge alone: nothing examined, nothing asked of the engine.
      expect(second.stages.map((s) => s.stage)).not.toContain('checking');
      // Output crosses the bridge raw, not as base64 in JSON (docs/containers.md, Performance).
      expect(b.binaryFrames).toBe(true);
      // The daemon writes straight into the exec session's pipes: no bridge relays them.
      await waitFor('the bridge to say it was adopted', () => second.logs.includes(ADOPTED_LOG));
    } finally {
      await b.close();
    }
  }, 120_000);

  it('runs through `tether run --container` byte-exact, with the exit code, and through `--exec`', async () => {
    // Every byte value, and a line without its newline at the end.
    const script =
      'i=0; while [ $i -lt 256 ]; do printf "\\\\$(printf %o $i)"; i=$((i+1)); done; printf tail; exit 7';
    const expected = Buffer.concat([
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.from('tail'),
    ]);
    const viaContainer = await tetherRun(['--container', `podman:${main}`, '--', '/bin/sh', '-c', script]);
    expect(viaContainer.stderr).toBe('');
    expect(viaContainer.code).toBe(7);
    expect(viaContainer.stdout.equals(expected)).toBe(true);
    const viaPrefix = await tetherRun([
      '--exec',
      `podman exec -i ${main}`,
      '--',
      '/bin/sh',
      '-c',
      'echo $HOME; exit 3',
    ]);
    expect(viaPrefix.code).toBe(3);
    expect(viaPrefix.stdout.toString()).toBe('/root\n');
  }, 60_000);

  it('opens an interactive shell in the container with `tether ssh --container`', async () => {
    const term = pty.spawn(process.execPath, [CLI, 'ssh', '--container', `podman:${main}`], {
      cols: 100,
      rows: 30,
      env: process.env as Record<string, string>,
    });
    let output = '';
    term.onData((d) => (output += d));
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    try {
      // The arithmetic is the shell's, in the container: its answer is not in what we typed.
      term.write('echo "in $(hostname):$((6*7))"\r');
      const hostname = await podman('inspect', '--format', '{{.Config.Hostname}}', main);
      await waitFor('the shell answered', () => output.includes(`in ${hostname}:42`), 30_000);
      term.write('exit 5\r');
      expect(await exited).toBe(5);
    } finally {
      try {
        process.kill(term.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }, 60_000);

  it('copies a file into the container and back with `tether cp --container`', async () => {
    const payload = randomBytes(1024 * 1024 + 7);
    const local = path.join(dir, 'cp-up.bin');
    writeFileSync(local, payload);
    const up = await tether('cp', ['--container', `podman:${main}`, local, 'remote:/share/cp-in.bin']);
    expect(up.code, up.stderr).toBe(0);
    // /share is this machine's `share` folder: what arrived there is what the container wrote.
    expect(readFileSync(path.join(share, 'cp-in.bin')).equals(payload)).toBe(true);
    const back = path.join(dir, 'cp-down.bin');
    const down = await tether('cp', ['--container', `podman:${main}`, 'remote:/share/cp-in.bin', back]);
    expect(down.code).toBe(0);
    expect(readFileSync(back).equals(payload)).toBe(true);
  }, 60_000);

  it('resumes a cut exec channel mid-stream with nothing lost', async () => {
    const c = client(spec(main));
    try {
      await c.connect();
      const sessionId = c.state.kind === 'connected' ? c.state.sessionId : '';
      const tick = (from: number, to: number): string =>
        `i=${from - 1}; while [ $i -lt ${to} ]; do i=$((i+1)); echo "tick $i"; done`;
      const out = collect(
        await c.startProcess({
          argv: ['/bin/sh', '-c', `${tick(1, 100)}; ${untilFile('go')}; ${tick(101, 300)}`],
          cwd: '/share',
          tty: false,
        }),
      );
      await waitFor('the first hundred ticks', () => out.text().endsWith('tick 100\n'));
      const [bridge, ...others] = bridgePids(main);
      expect(others).toEqual([]);
      process.kill(bridge!, 'SIGKILL');
      writeFileSync(path.join(share, 'go'), '');
      await waitFor('the process to close', () => out.closed());
      expect(out.text()).toBe(Array.from({ length: 300 }, (_, i) => `tick ${i + 1}\n`).join(''));
      expect(out.inOrder()).toBe(true);
      expect(out.gaps()).toEqual([]);
      expect(c.state.kind === 'connected' ? c.state.sessionId : null).toBe(sessionId);
      expect(bridgePids(main)).not.toContain(bridge);
    } finally {
      await c.close();
    }
  }, 60_000);

  it("lists the engine's containers, here and on an SSH host, with name, image, status and age", async () => {
    const target = { destination: sshHost.alias, sshOptions: rig.sshOptions };
    const via = { hostName: sshHost.alias, commandArgv: (command: string) => batchSshArgv(target, command) };
    for (const listed of [
      await listContainers({ engine: 'podman' }),
      await listContainers({ engine: 'podman', via }),
    ]) {
      const entry = listed.find((c) => c.name === main);
      expect(entry).toMatchObject({ image, running: true });
      expect(entry?.status).toMatch(/^Up/);
      expect(entry?.createdAt).toBeGreaterThan(Date.now() - 10 * 60_000);
    }
  });

  it('opens a container of an SSH host as its own environment, riding ssh to the engine there', async () => {
    const hooks = recordingHooks();
    const c = client(spec(main, { host: { destination: sshHost.alias, sshOptions: rig.sshOptions } }), hooks);
    try {
      await c.connect();
      expect(hooks.stages.map((s) => s.stage)).toEqual(
        // Warm: the container was prepared by an earlier test, so the checked bridge is the only step.
        expect.arrayContaining(['connecting', 'authenticating', 'starting', 'connected']),
      );
      const out = collect(
        await c.startProcess({ argv: ['/bin/sh', '-c', 'hostname; exit 4'], cwd: '/', tty: false }),
      );
      await waitFor('the process', () => out.closed());
      expect(out.text().trim()).toBe(await podman('inspect', '--format', '{{.Config.Hostname}}', main));
      expect(out.exitCode()).toBe(4);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('says a stopped container is stopped, and after a restart that the session was lost', async () => {
    const name = await newContainer('stop');
    const c = client(spec(name));
    let sessionId = '';
    try {
      await c.connect();
      sessionId = c.state.kind === 'connected' ? c.state.sessionId : '';
      await podman('stop', '-t', '0', name);
      const failed = await waitFor('the stopped state', () => (c.state.kind === 'failed' ? c.state : null));
      expect(failed.code).toBe('containerStopped');
      expect(failed.reason).toMatch(new RegExp(`container ${name} is (exited|stopped)`));
    } finally {
      await c.close();
    }
    await startContainer({ engine: 'podman' }, name);
    const again = client(spec(name), recordingHooks(), sessionId);
    try {
      await expect(again.connect()).rejects.toMatchObject({ code: 'unknownSession' });
      expect(again.state.kind === 'failed' ? again.state.reason : '').toMatch(
        /session was lost on container/,
      );
    } finally {
      await again.close();
    }
  }, 60_000);

  it('says a removed container is gone', async () => {
    const name = await newContainer('removed');
    const c = client(spec(name));
    try {
      await c.connect();
      await podman('rm', '-f', '-t', '0', name);
      const failed = await waitFor('the gone state', () => (c.state.kind === 'failed' ? c.state : null));
      expect(failed.code).toBe('containerGone');
      expect(failed.reason).toMatch(/no longer exists/);
    } finally {
      await c.close();
    }
    await expect(client(spec(name)).connect()).rejects.toMatchObject({ code: 'containerGone' });
  }, 60_000);

  it('serves two containers at once, each its own', async () => {
    const other = await newContainer('other');
    const [a, b] = [client(spec(main)), client({ kind: 'exec', prefix: ['podman', 'exec', '-i', other] })];
    try {
      await Promise.all([a.connect(), b.connect()]);
      const run = async (c: RemoteExecServerClient): Promise<string> => {
        const out = collect(await c.startProcess({ argv: ['/bin/hostname'], cwd: '/', tty: false }));
        await waitFor('hostname', () => out.closed());
        return out.text().trim();
      };
      const [hostA, hostB] = await Promise.all([run(a), run(b)]);
      expect(hostA).toBe((await podman('inspect', '--format', '{{.Config.Hostname}}', main)).trim());
      expect(hostB).toBe((await podman('inspect', '--format', '{{.Config.Hostname}}', other)).trim());
      expect(hostA).not.toBe(hostB);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it('names what a container without glibc lacks, and the way out', async () => {
    const name = await newContainer('noglibc', 'busybox');
    const c = client(spec(name));
    try {
      const failure = await c.connect().then(
        () => null,
        (error: Error & { code?: string }) => error,
      );
      expect(failure?.code).toBe('hostSetup');
      expect(failure?.message).toMatch(/has no glibc/);
      expect(failure?.message).toMatch(/--remote-node/);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('removes what it installed from a container', async () => {
    const name = await newContainer('uninstall');
    const c = client(spec(name));
    try {
      await c.connect();
    } finally {
      // Closed before the uninstall: a client still connected would take the stopped daemon for a
      // dropped link and, reconnecting, install again. The daemon it started stays for its idle
      // time (minutes), so there is one to stop.
      await c.close();
    }
    const uninstall = transportKind('container').uninstall!;
    const report = await uninstall(spec(name) as TransportSpec & { kind: 'container' }, undefined);
    expect(report.stoppedPids.length).toBe(1);
    expect(report.removed).toEqual(expect.arrayContaining(['/root/.tether/server', '/root/.tether/runtime']));
    expect(existsSync(path.join(tetherHome, 'server'))).toBe(false);
  }, 60_000);
});
