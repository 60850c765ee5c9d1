// The bootstrap's host commands are bounded: a host that streams output without end is cut off at
// MAX_HOST_COMMAND_OUTPUT_BYTES, one that goes silent fails after the idle timeout with a clear
// error (while one that keeps talking or taking input does not), and stdout is handed on in pieces
// that are each scanned once, with markers found even across a piece boundary.
import { describe, expect, it } from 'vitest';
import type { HostShell } from '../../../../electron/client/remote-host/host-shell';
import {
  MarkerScan,
  MAX_HOST_COMMAND_OUTPUT_BYTES,
  runOnHost,
} from '../../../../electron/client/remote-host/remote-shell';
import { SshError } from '../../../../electron/client/transports/ssh/ssh-error';
import { pidAlive } from '../../../support/pids';

/** Runs each script with sh on this machine. */
const localShell: HostShell = {
  hostName: 'this machine',
  commandArgv: (script) => ['/bin/sh', '-c', script],
  channelFailureExit: null,
};

const examining = { stage: 'checking', doing: 'examining the host' } as const;

async function failure(run: Promise<unknown>): Promise<SshError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SshError)) throw new Error(`expected an SshError, got ${String(error)}`);
  return error;
}

describe('host commands', () => {
  it('stop a host that streams stdout without end, once it passed the cap', async () => {
    let seen = 0;
    const started = Date.now();
    const error = await failure(
      runOnHost(localShell, 'exec yes', {
        ...examining,
        onStdout: (chunk) => {
          seen += chunk.length;
        },
      }),
    );
    expect(error.stage).toBe('checking');
    expect(error.message).toBe(
      'The host printed more than 1 MiB on stdout while examining the host on this machine.',
    );
    expect(seen).toBeGreaterThan(MAX_HOST_COMMAND_OUTPUT_BYTES - 64 * 1024);
    expect(seen).toBeLessThan(MAX_HOST_COMMAND_OUTPUT_BYTES + 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stop a host that streams stderr without end', async () => {
    const error = await failure(runOnHost(localShell, 'exec yes >&2', examining));
    expect(error.message).toMatch(/^The host printed more than 1 MiB on stderr while examining/);
  });

  it('give up on a silent host after the idle timeout, and end the command', async () => {
    const started = Date.now();
    const error = await failure(runOnHost(localShell, 'exec sleep 30', { ...examining, idleTimeoutMs: 400 }));
    expect(error.message).toBe('The host did not answer for 0.4 s while examining the host on this machine.');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('let a command run past the idle timeout while it keeps printing', async () => {
    const run = await runOnHost(localShell, 'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick; sleep 0.1; done', {
      ...examining,
      idleTimeoutMs: 400,
    });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(10);
  });

  it('let a command run past the idle timeout while it takes input', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let timer: NodeJS.Timeout | undefined;
    const run = await runOnHost(localShell, 'echo go; exec wc -c', {
      ...examining,
      idleTimeoutMs: 1500,
      onStdout: (text, stdin) => {
        if (!text.includes('go')) return;
        let sent = 0;
        // 20 pieces, one every 150 ms: 3 s in all, twice the idle timeout.
        timer = setInterval(() => {
          stdin.write(chunk);
          if (++sent === 20) {
            clearInterval(timer);
            stdin.end();
          }
        }, 150);
      },
    });
    clearInterval(timer);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)?.trim()).toBe(String(20 * chunk.length));
  });

  it('hand on stdout in pieces, never the whole again', async () => {
    const pieces: string[] = [];
    const run = await runOnHost(localShell, 'echo one; sleep 0.2; echo two; sleep 0.2; echo three', {
      ...examining,
      onStdout: (chunk) => pieces.push(chunk),
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(run.stdout);
    expect(run.stdout).toBe('one\ntwo\nthree\n');
  });

  it('does not leave the stopped command running', async () => {
    let pid = 0;
    await failure(
      runOnHost(localShell, 'echo $$; exec sleep 30', {
        ...examining,
        idleTimeoutMs: 300,
        onStdout: (chunk) => {
          pid = Number(chunk.trim());
        },
      }),
    );
    expect(pid).toBeGreaterThan(0);
    expect(pidAlive(pid)).toBe(false);
  });
});

describe('MarkerScan', () => {
  it('finds a marker split across pieces, once', () => {
    const scan = new MarkerScan(['tether-abc-ready', 'tether-abc-present']);
    expect(scan.feed('noise tether-a')).toEqual([]);
    expect(scan.feed('bc-rea')).toEqual([]);
    expect(scan.feed('dy\nmore')).toEqual(['tether-abc-ready']);
    expect(scan.feed('tether-abc-ready')).toEqual([]);
    expect(scan.has('tether-abc-ready')).toBe(true);
    expect(scan.has('tether-abc-present')).toBe(false);
  });

  it('scans each piece once, however much came before (no quadratic re-scan)', () => {
    const scan = new MarkerScan(['tether-0123456789ab-installed']);
    const piece = 'x'.repeat(64 * 1024);
    const started = performance.now();
    // 64 MiB in all: re-scanning everything so far on each piece would take minutes.
    for (let i = 0; i < 1024; i++) scan.feed(piece);
    expect(scan.feed('tether-0123456789ab-installed')).toEqual(['tether-0123456789ab-installed']);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
