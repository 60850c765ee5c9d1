// Startup behaviour of both exec-servers: listen URLs and auth flags that must be refused, and
// Tether's refusal to listen without authentication, beyond loopback or on it (intended differences).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverCommand, type ServerImpl } from '../support/exec-servers';

/** Bound for a server that must refuse to start. */
const REFUSAL_TIMEOUT_MS = 15_000;

/** Runs the server with `args`; resolves with its exit code, or 'running' if it printed a URL. */
function startupOutcome(impl: ServerImpl, args: string[]): Promise<number | 'running' | null> {
  const { command, args: base } = serverCommand(impl);
  const child = spawn(command, [...base, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${impl} neither exited nor printed a URL`));
    }, REFUSAL_TIMEOUT_MS);
    child.stdout.once('data', () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve('running');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

const refusals: Array<[string, string[]]> = [
  ['a host name instead of an IP literal', ['--listen', 'ws://localhost:0']],
  ['an unsupported scheme', ['--listen', 'http://127.0.0.1:0']],
  ['ws auth flags without --ws-auth', ['--listen', 'ws://127.0.0.1:0', '--ws-token-sha256', 'a'.repeat(64)]],
  ['capability-token without a token', ['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token']],
];

describe('exec-server startup', () => {
  for (const [what, args] of refusals) {
    it(`both servers refuse ${what}`, async () => {
      const [codex, tether] = await Promise.all([
        startupOutcome('codex', args),
        startupOutcome('tether', args),
      ]);
      expect(codex).not.toBe('running');
      expect(codex).not.toBe(0);
      expect(tether).toBe(codex);
    });
  }

  it('Tether refuses a non-loopback listen address without --ws-auth (non-loopback-listen)', async () => {
    // Codex would bind here; it is not started because tests never listen beyond loopback.
    const outcome = await startupOutcome('tether', ['--listen', 'ws://0.0.0.0:0']);
    expect(outcome).not.toBe('running');
    expect(outcome).not.toBe(0);
  });

  it('Tether refuses a loopback listener without --ws-auth, where codex serves (ws-auth-required)', async () => {
    const args = ['--listen', 'ws://127.0.0.1:0'];
    const [codex, tether] = await Promise.all([
      startupOutcome('codex', args),
      startupOutcome('tether', args),
    ]);
    expect(codex).toBe('running');
    expect(tether).toBe(1);
    expect(await startupOutcome('tether', [...args, '--ws-auth', 'none'])).toBe('running');
  });
});
