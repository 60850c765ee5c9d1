// The client over stdio against both servers, and against stdio "servers" that misbehave: one that
// writes garbage and one that dies. Each is reported clearly and leaves no process group behind.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { serverCommand, type ServerImpl } from '../../support/exec-servers';
import { collect, groupAlive, waitFor } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-stdio-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A stdio command that records its shell's pid (= its process group) before exec'ing `command`. */
function recordingPid(dir: string, command: string): { command: string[]; pid: () => number } {
  const pidFile = path.join(dir, 'pid');
  return {
    command: ['/bin/sh', '-c', `echo $$ > '${pidFile}'; ${command}`],
    pid: () => Number(readFileSync(pidFile, 'utf8').trim()),
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function shellQuote(args: string[]): string {
  return args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

describe.each<ServerImpl>(['codex', 'tether'])('RemoteExecServerClient against %s (stdio)', (impl) => {
  it('runs processes over stdio and ends the server and its group on close', async () => {
    const dir = scratch();
    const { command, args } = serverCommand(impl);
    const server = recordingPid(
      dir,
      `CODEX_HOME='${dir}' exec ${shellQuote([command, ...args, '--listen', 'stdio'])}`,
    );
    const client = new RemoteExecServerClient({ transport: { kind: 'stdio', command: server.command } });
    cleanups.push(() => client.close());
    await client.connect();
    expect(client.state.kind).toBe('connected');
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', 'head -c 100000 /dev/zero | tr "\\0" y; exit 9'],
      cwd: dir,
      tty: false,
    });
    const out = collect(handle);
    await waitFor('closed', () => out.closed());
    expect(out.text()).toBe('y'.repeat(100_000));
    expect(out.exitCode()).toBe(9);
    const pid = server.pid();
    expect(groupAlive(pid)).toBe(true);
    await client.close();
    await waitFor('server group gone', () => !groupAlive(pid), 10_000);
  });

  it('settles close only once the server process has exited, its last writes done', async () => {
    const dir = scratch();
    const { command, args } = serverCommand(impl);
    const marker = path.join(dir, 'last-write');
    // What the server process does on its way out (the Local server writes its code cache), played
    // by the shell that runs it: it exits only after the file is written.
    const server = recordingPid(
      dir,
      `CODEX_HOME='${dir}' ${shellQuote([command, ...args, '--listen', 'stdio'])}; sleep 0.3; echo done > '${marker}'`,
    );
    const client = new RemoteExecServerClient({ transport: { kind: 'stdio', command: server.command } });
    await client.connect();
    await client.close();
    expect(existsSync(marker)).toBe(true);
    expect(processAlive(server.pid())).toBe(false);
  });

  it('reports a stdio server that dies, failing its processes, and leaves no group behind', async () => {
    const dir = scratch();
    const { command, args } = serverCommand(impl);
    const server = recordingPid(
      dir,
      `CODEX_HOME='${dir}' ${shellQuote([command, ...args, '--listen', 'stdio'])}; echo dying >&2`,
    );
    const client = new RemoteExecServerClient({ transport: { kind: 'stdio', command: server.command } });
    cleanups.push(() => client.close());
    const handle = await client.startProcess({ argv: ['/bin/sleep', '3'], cwd: dir, tty: false });
    const out = collect(handle);
    const pid = server.pid();
    // Kill only the server process (the shell's child), the way a crash would.
    const serverPid = Number(
      readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0],
    );
    process.kill(serverPid, 'SIGKILL');
    await waitFor('failed', () => client.state.kind === 'failed');
    expect(client.state).toMatchObject({ kind: 'failed', code: 'transport' });
    expect(client.state.kind === 'failed' && client.state.reason).toMatch(/exited|killed/);
    expect(client.state.kind === 'failed' && client.state.reason).toMatch(/dying/);
    expect(out.failed()).toMatch(/cannot resume/);
    await waitFor('server group gone', () => !groupAlive(pid), 10_000);
  });
});

describe('stdio servers that misbehave', () => {
  it('reports a server that writes garbage instead of JSON-RPC, and kills its group', async () => {
    const dir = scratch();
    const server = recordingPid(dir, 'echo "this is not json"; exec sleep 60');
    const client = new RemoteExecServerClient({
      transport: { kind: 'stdio', command: server.command },
      initializeTimeoutMs: 1_500,
    });
    cleanups.push(() => client.close());
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe('protocol');
    expect(error?.message).toMatch(/not JSON: this is not json/);
    expect(client.state.kind).toBe('failed');
    await waitFor('garbage server group gone', () => !groupAlive(server.pid()), 10_000);
  });

  it('reports a server command that exits at once, with its stderr', async () => {
    const client = new RemoteExecServerClient({
      transport: { kind: 'stdio', command: ['/bin/sh', '-c', 'echo "no such host" >&2; exit 255'] },
    });
    cleanups.push(() => client.close());
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe('disconnected');
    expect(error?.message).toMatch(/exited with code 255/);
    expect(error?.message).toMatch(/no such host/);
  });
});
