// What another user, a killed installer or a second host sharing the home can leave on an SSH
// host, against real sshd hosts (each with its own HOME): a run directory taken by another user
// (the daemon falls back to a recorded private one; two homes of one uid never share a daemon),
// stale install locks (a dead holder on this host, one that died before saying who it was, one on
// another host that is respected until it is old), staging copies of a killed install (swept),
// and an upload altered in transit (refused, nothing installed, nothing left behind).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostShell } from '../../../electron/client/remote-host/host-shell';
import { loadServerBundle } from '../../../electron/client/remote-host/local-artifacts';
import { installArtifact } from '../../../electron/client/remote-host/remote-install';
import { SshError } from '../../../electron/client/transports/ssh/ssh-error';
import { homeKey, RUN_DIR_RECORD } from '../../../electron/server/daemon/daemon-paths';
import { daemonPids, SshTestRig, type SshdHost } from '../../support/sshd';
import { collect, waitFor } from '../client/helpers';
import { installedOnHost, recordingHooks, sshClient } from './ssh-helpers';

const NOBODY = 65534;
let rig: SshTestRig;
let bundleId: string;
const removals: string[] = [];
beforeAll(async () => {
  rig = new SshTestRig();
  bundleId = (await loadServerBundle({})).id;
});
afterAll(async () => {
  await rig.close();
  for (const dir of removals) rmSync(dir, { recursive: true, force: true });
});

async function host(alias: string, defaultRunDir = false): Promise<SshdHost> {
  const started = await rig.startHost({ alias, defaultRunDir });
  rig.trustHost(started);
  return started;
}

/** Connects, runs echo, and closes; returns the install log lines. */
async function connectAndEcho(target: SshdHost, word: string): Promise<string[]> {
  const hooks = recordingHooks();
  const client = sshClient(rig, target, hooks);
  try {
    await client.connect();
    const out = collect(await client.startProcess({ argv: ['/bin/echo', word], cwd: '/', tty: false }));
    await waitFor('output', () => out.closed());
    expect(out.text()).toContain(word);
  } finally {
    await client.close();
  }
  return hooks.logs;
}

const usualRunDir = (target: SshdHost): string => `/tmp/tether-${os.userInfo().uid}-${homeKey(target.home)}`;
const serverRoot = (target: SshdHost): string => path.join(target.home, '.tether', 'server');

/** A lock directory on `target` as a holder would have left it, `ageMinutes` old. */
function leaveLock(target: SshdHost, owner: string | null, ageMinutes: number): string {
  const lock = path.join(serverRoot(target), `${bundleId}.lock`);
  mkdirSync(lock, { recursive: true });
  if (owner !== null) writeFileSync(path.join(lock, 'owner'), `${owner}\n`);
  const time = new Date(Date.now() - ageMinutes * 60_000);
  utimesSync(lock, time, time);
  return lock;
}

const thisHost = (): string => execFileSync('uname', ['-n'], { encoding: 'utf8' }).trim();
const bootId = (): string => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

describe('SSH host directories', () => {
  it("falls back from a run directory another user took, and keeps homes' daemons apart", async () => {
    const taken = await host('taken-run-dir', true);
    const other = await host('other-home', true);
    removals.push(usualRunDir(taken), usualRunDir(other));
    mkdirSync(usualRunDir(taken), { mode: 0o755 });
    chownSync(usualRunDir(taken), NOBODY, NOBODY);

    await connectAndEcho(taken, 'past-the-squatter');
    const record = path.join(taken.home, RUN_DIR_RECORD);
    const fallback = readFileSync(record, 'utf8').trim();
    removals.push(fallback);
    expect(fallback).not.toBe(usualRunDir(taken));
    expect(readdirSync(fallback)).toContain(`${bundleId}.sock`);
    // The squatter's directory got nothing.
    expect(readdirSync(usualRunDir(taken))).toEqual([]);
    const [daemon] = daemonPids(taken);
    expect(daemon).toBeDefined();

    // A later connect finds the same daemon through the record.
    await connectAndEcho(taken, 'found-again');
    expect(daemonPids(taken)).toEqual([daemon]);

    // Another home of the same uid gets a daemon of its own, in its own usual directory.
    await connectAndEcho(other, 'my-own-daemon');
    expect(daemonPids(other)).toHaveLength(1);
    expect(daemonPids(taken)).toEqual([daemon]);
    expect(readdirSync(usualRunDir(other))).toContain(`${bundleId}.sock`);
  });

  it('breaks a lock whose holder on this host is gone, and one that never said who held it', async () => {
    const deadHolder = await host('dead-holder');
    leaveLock(deadHolder, `${thisHost()} ${bootId()} 999999`, 0);
    expect((await connectAndEcho(deadHolder, 'dead-holder')).some((l) => l.endsWith(': installed'))).toBe(
      true,
    );

    const anonymous = await host('anonymous-lock');
    leaveLock(anonymous, null, 20);
    expect((await connectAndEcho(anonymous, 'anonymous')).some((l) => l.endsWith(': installed'))).toBe(true);
    expect(existsSync(path.join(serverRoot(anonymous), `${bundleId}.lock`))).toBe(false);
  });

  it("waits on another host's lock until it is old", async () => {
    const shared = await host('shared-home');
    const lock = leaveLock(shared, 'another-host 00000000-0000-0000-0000-000000000000 1', 0);
    const hooks = recordingHooks();
    const client = sshClient(rig, shared, hooks);
    try {
      const connecting = client.connect();
      let connected = false;
      void connecting.then(() => {
        connected = true;
      });
      await waitFor('the install to start waiting', () => hooks.stages.some((s) => s.stage === 'installing'));
      await new Promise((r) => setTimeout(r, 3000));
      // Another host's installer may be alive: this host cannot tell, so it waits.
      expect(connected).toBe(false);
      expect(existsSync(path.join(serverRoot(shared), bundleId))).toBe(false);
      const old = new Date(Date.now() - 20 * 60_000);
      utimesSync(lock, old, old);
      await connecting;
    } finally {
      await client.close();
    }
    expect(installedOnHost(shared, 'server')).toEqual([bundleId]);
  });

  it("sweeps a killed install's staging copy on the next install", async () => {
    const killed = await host('killed-install');
    const leftover = path.join(serverRoot(killed), `${bundleId}.staging-0badf00d`);
    mkdirSync(leftover, { recursive: true });
    writeFileSync(path.join(leftover, 'payload'), 'half an upload');
    await connectAndEcho(killed, 'swept');
    expect(existsSync(leftover)).toBe(false);
    expect(installedOnHost(killed, 'server')).toEqual([bundleId]);
  });

  it('refuses an upload altered in transit: checksum mismatch, nothing installed or left behind', async () => {
    const target = await host('altered');
    const shell: HostShell = {
      hostName: target.alias,
      commandArgv: (script) => ['ssh', ...rig.sshOptions, target.alias, script],
      channelFailureExit: 255,
    };
    const tree = path.join(rig.dir, 'altered-tree');
    mkdirSync(tree, { recursive: true });
    writeFileSync(path.join(tree, 'marker.txt'), 'the real thing\n');
    const bytes = gzipSync(execFileSync('tar', ['-C', tree, '-cf', '-', '.']));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // One byte flipped on the way: the host receives these, the client expects `sha256`.
    const altered = Buffer.from(bytes);
    const middle = Math.floor(altered.length / 2);
    altered[middle] = (altered[middle] ?? 0) ^ 0x01;
    const finalDir = path.join(target.home, '.tether', 'server', '0.0.1-0123456789ab');
    const failure = await installArtifact(
      shell,
      {
        finalDir,
        completeMarker: 'marker.txt',
        payload: { bytes: altered },
        payloadBytes: altered.length,
        payloadSha256: sha256,
        unpack: { kind: 'tar', gzip: true },
      },
      () => undefined,
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SshError);
    expect((failure as SshError).message).toMatch(/checksum mismatch/);
    expect(existsSync(finalDir)).toBe(false);
    // The staging copy and the lock went with the failed script.
    expect(readdirSync(path.dirname(finalDir))).toEqual([]);
  });
});
