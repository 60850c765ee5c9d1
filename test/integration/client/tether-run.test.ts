// `tether run` end to end against both servers: byte-exact output on the right streams, the
// process's exit code (128+signal for signals), stdin forwarding, a tty session driven through a
// real pty, the stdio transport, and a clear failure when there is no server.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultProxy } from '../../support/fault-proxy';
import { serverCommand, startServer, TETHER_BIN, type ServerImpl } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';
import { makeCaSignedCertificate, startWssServer } from '../../support/tls';
import { untilFile, waitFor } from './helpers';

interface RunResult {
  code: number | null;
  stdout: Buffer;
  /** Raw bytes: the process's stderr must come through unchanged, valid UTF-8 or not. */
  stderr: Buffer;
}

interface StartedRun {
  /** stdout and stderr received so far. */
  stdout(): Buffer;
  stderr(): string;
  /** Signals the `tether run` process we started. */
  kill(signal: NodeJS.Signals): void;
  result: Promise<RunResult>;
}

function startTetherRun(args: string[], input?: string, env?: NodeJS.ProcessEnv): StartedRun {
  const child = spawn(process.execPath, [TETHER_BIN, 'run', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => stdout.push(d));
  child.stderr.on('data', (d: Buffer) => stderr.push(d));
  if (input !== undefined) child.stdin.end(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const result = new Promise<RunResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) });
    });
  });
  return {
    stdout: () => Buffer.concat(stdout),
    stderr: () => Buffer.concat(stderr).toString(),
    kill: (signal) => child.kill(signal),
    result,
  };
}

const tetherRun = (args: string[], input?: string, env?: NodeJS.ProcessEnv): Promise<RunResult> =>
  startTetherRun(args, input, env).result;

/** Lines of `stty size` answers ("ROWS COLS") in a terminal transcript. */
const sizeAnswers = (output: string): number => output.match(/^\d+ \d+\r?$/gm)?.length ?? 0;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each<ServerImpl>(['codex', 'tether'])('tether run against %s', (impl) => {
  /** A ws server; `auth` are the `tether run` flags that present its token (none for codex). */
  async function serverUrl(): Promise<{ url: string; home: string; auth: string[] }> {
    const server = await startServer(impl, 'ws');
    cleanups.push(() => server.stop());
    const auth = server.tokenFile === undefined ? [] : ['--token-file', server.tokenFile];
    return { url: server.url!, home: server.home, auth };
  }

  it('copies stdout and stderr byte-exact and exits with the process status', async () => {
    const { url, auth } = await serverUrl();
    const result = await tetherRun([
      '--server',
      url,
      ...auth,
      '--',
      '/bin/sh',
      '-c',
      'seq 1 30000; printf "\\001\\002\\377" >&2; exit 7',
    ]);
    expect(result.code).toBe(7);
    expect(result.stdout.toString()).toBe(Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join(''));
    // \377 is not UTF-8: anything that decodes and re-encodes the stream would change it.
    expect(result.stderr).toEqual(Buffer.from([0x01, 0x02, 0xff]));
  });

  it.each([false, true])(
    'rides through a dropped link (verbose=%s: notices only when asked)',
    async (verbose) => {
      const { url, home, auth } = await serverUrl();
      const proxy = await FaultProxy.forUrl(url);
      cleanups.push(() => proxy.close());
      const lines = (from: number, to: number) =>
        `i=${from - 1}; while [ $i -lt ${to} ]; do i=$((i+1)); echo "line $i"; done`;
      // Half the lines, then a pause until the link has been cut, so the rest must ride through.
      const script = `${lines(1, 30)}; ${untilFile('go')}; ${lines(31, 60)}; exit 6`;
      const run = startTetherRun([
        '--server',
        proxy.url(),
        ...auth,
        ...(verbose ? ['--verbose'] : []),
        '--',
        '/bin/sh',
        '-c',
        script,
      ]);
      await waitFor('the first half', () => run.stdout().toString().endsWith('line 30\n'));
      expect(proxy.cutAll()).toBe(1);
      writeFileSync(path.join(home, 'go'), '');
      const result = await run.result;
      expect(proxy.stats().connections, 'one reconnect').toBe(2);
      expect(result.stdout.toString()).toBe(Array.from({ length: 60 }, (_, i) => `line ${i + 1}\n`).join(''));
      expect(result.code).toBe(6);
      if (verbose) expect(result.stderr.toString()).toMatch(/tether: reconnecting \(attempt 1\)/);
      else expect(result.stderr.toString()).toBe('');
    },
  );

  it('exits with 128+signal when the process is killed by a signal', async () => {
    const { url, auth } = await serverUrl();
    const result = await tetherRun(['--server', url, ...auth, '--', '/bin/sh', '-c', 'kill -TERM $$']);
    expect(result.code).toBe(143);
  });

  it('uses the server cwd by default, --cwd and --env on top of the server environment', async () => {
    const { url, home, auth } = await serverUrl();
    const defaults = await tetherRun([
      '--server',
      url,
      ...auth,
      '--',
      '/bin/sh',
      '-c',
      'pwd; echo "$PATH" | grep -c /',
    ]);
    expect(defaults.stdout.toString()).toBe(`${home}\n1\n`);
    const custom = await tetherRun([
      '--server',
      url,
      ...auth,
      '--cwd',
      '/',
      '--env',
      'GREETING=hi there',
      '--',
      '/bin/sh',
      '-c',
      'pwd; echo "$GREETING"',
    ]);
    expect(custom.stdout.toString()).toBe('/\nhi there\n');
  });

  it('forwards stdin that is not a terminal and keeps going after its end', async () => {
    const { url, auth } = await serverUrl();
    const result = await tetherRun(
      ['--server', url, ...auth, '--', '/bin/sh', '-c', 'head -c 11; sleep 0.3; echo after'],
      'hello world and more',
    );
    expect(result.stdout.toString()).toBe('hello worldafter\n');
    expect(result.code).toBe(0);
  });

  it('passes the end of piped stdin on, so sort and cat finish (pipes)', async () => {
    const { url, auth } = await serverUrl();
    const common = ['--server', url, ...auth, '--'];
    if (impl === 'codex') {
      // codex cannot end a pipe process's input: said once on stderr, and the process keeps going.
      const run = startTetherRun([...common, '/bin/cat'], 'unended\n');
      await waitFor('cat output', () => run.stdout().toString() === 'unended\n');
      await waitFor('the warning', () => run.stderr().includes("cannot close a process's stdin"));
      run.kill('SIGTERM');
      expect((await run.result).code).not.toBe(0);
      return;
    }
    const sorted = await tetherRun([...common, 'sort'], 'pear\napple\nfig\n');
    expect(sorted.stdout.toString()).toBe('apple\nfig\npear\n');
    expect(sorted.code).toBe(0);
    const input = Buffer.from(Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const cat = await tetherRun([...common, '/bin/cat'], input.toString());
    expect(cat.stdout.equals(input)).toBe(true);
    expect(cat.code).toBe(0);
  });

  it('ends the input of a tty process with the terminal EOF, also after a partial line', async () => {
    const { url, home, auth } = await serverUrl();
    const out = path.join(home, 'typed');
    const result = await tetherRun(
      ['--server', url, ...auth, '--tty', '--', '/bin/sh', '-c', `cat > '${out}'; echo done`],
      'first\nno newline',
    );
    expect(result.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('first\nno newline');
  });

  it('runs an interactive tty session through a real pty', async () => {
    const { url, auth } = await serverUrl();
    const argv = ['/bin/sh', '-c', 'stty -echo; echo READY; stty echo; exec cat'];
    const term = pty.spawn(
      process.execPath,
      [TETHER_BIN, 'run', '--tty', '--server', url, ...auth, '--', ...argv],
      {
        cols: 100,
        rows: 30,
        env: process.env as Record<string, string>,
      },
    );
    let output = '';
    term.onData((d) => (output += d));
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    cleanups.push(() => {
      try {
        process.kill(term.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    // Raw mode: keystrokes go through unprocessed, the remote pty echoes them.
    await waitFor('remote shell ready', () => output.includes('READY'), 20_000);
    term.write('typed text\r');
    // Once from the remote pty's echo, once from cat.
    await waitFor(
      'echo and output from the remote pty',
      () => output.split('typed text').length >= 3,
      20_000,
    );
    term.write('\x04');
    expect(await exited).toBe(0);
    expect(output.split('typed text').length - 1, 'echoed once and copied once').toBe(2);
    // The remote pty already turned each \n into \r\n: our terminal, raw as ssh makes it, adds no \r.
    expect(output).toContain('READY\r\n');
    expect(output).not.toContain('\r\r\n');
  });

  it('ends like SIGPIPE when our reader goes away, terminating the remote process', async () => {
    const { url, auth } = await serverUrl();
    const child = spawn(
      process.execPath,
      [TETHER_BIN, 'run', '--server', url, ...auth, '--', '/usr/bin/yes', 'y'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const code = new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    expect(await code).toBe(141);
    clearTimeout(timer);
  });

  it('exits 127 like a shell when the program does not exist', async () => {
    const { url, auth } = await serverUrl();
    const result = await tetherRun(['--server', url, ...auth, '--', '/no/such/program']);
    expect(result.code).toBe(127);
    expect(result.stderr.toString()).toMatch(/cannot run \/no\/such\/program/);
  });

  it('runs over --stdio and exits with the process status', async () => {
    const { command, args } = serverCommand(impl);
    const line = [command, ...args, '--listen', 'stdio'].map((a) => `'${a}'`).join(' ');
    const result = await tetherRun(['--stdio', line, '--', '/bin/sh', '-c', 'echo over-stdio; exit 3']);
    expect(result.stdout.toString()).toBe('over-stdio\n');
    expect(result.code).toBe(3);
  });
});

describe('tether run and the session it leaves', () => {
  it('ends its session when done, so the server keeps nothing of it (session/end)', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const run = await tetherRun([
      '--server',
      server.url!,
      '--token-file',
      server.tokenFile!,
      '--',
      'echo',
      'hi',
    ]);
    expect([run.code, run.stdout.toString()]).toEqual([0, 'hi\n']);
    const watcher = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
    cleanups.push(() => watcher.drop());
    await watcher.call('initialize', { clientName: 'watcher' });
    watcher.notify('initialized', {});
    const listed = await watcher.call<{ sessions: Array<{ clientName: string }> }>('session/list', {});
    expect(listed.sessions.map((session) => session.clientName)).toEqual(['watcher']);
  });
});

describe('tether run --tty window size against tether', () => {
  it('starts with our window size and follows SIGWINCH', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const argv = ['/bin/sh', '-c', 'stty size; while read x; do stty size; done'];
    const term = pty.spawn(
      process.execPath,
      [TETHER_BIN, 'run', '--tty', '--server', server.url!, '--token-file', server.tokenFile!, '--', ...argv],
      {
        cols: 100,
        rows: 30,
        env: process.env as Record<string, string>,
      },
    );
    let output = '';
    term.onData((d) => (output += d));
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    cleanups.push(() => {
      try {
        process.kill(term.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    await waitFor('initial size', () => output.includes('30 100'), 20_000);
    term.resize(120, 40);
    // The resize travels on its own, so ask again (each Enter gets one more `stty size` answer)
    // until the answer shows the new size.
    for (let asked = 1; !output.includes('40 120'); asked++) {
      if (asked > 50) throw new Error(`the new size never showed up: ${JSON.stringify(output)}`);
      term.write('\r');
      await waitFor(`answer ${asked}`, () => sizeAnswers(output) > asked, 20_000);
    }
    term.write('\x04');
    expect(await exited).toBe(0);
  });
});

describe('tether run over wss:// against tether', () => {
  it('runs with --tls-fingerprint and refuses the same server without it, naming the fingerprint', async () => {
    const { server, cert } = await startWssServer(cleanups);
    const pinned = await tetherRun([
      '--server',
      server.url!,
      '--token-file',
      server.tokenFile!,
      '--tls-fingerprint',
      cert.fingerprint,
      '--',
      '/bin/echo',
      'encrypted',
    ]);
    expect(pinned.stderr.toString()).toBe('');
    expect(pinned.stdout.toString()).toBe('encrypted\n');
    expect(pinned.code).toBe(0);
    const unpinned = await tetherRun([
      '--server',
      server.url!,
      '--token-file',
      server.tokenFile!,
      '--',
      '/bin/echo',
      'encrypted',
    ]);
    expect(unpinned.code).toBe(255);
    expect(unpinned.stdout.toString()).toBe('');
    expect(unpinned.stderr.toString()).toContain(cert.fingerprint);
  });
});

describe('tether run over wss:// with a CA-signed certificate', () => {
  it('trusts the CAs Node trusts without a pin, for the certificate host name only', async () => {
    const { server, cert } = await startWssServer(cleanups, { cert: makeCaSignedCertificate() });
    const port = new URL(server.url!).port;
    const trustingCa = { NODE_EXTRA_CA_CERTS: cert.caFile };
    const verified = await tetherRun(
      ['--server', server.url!, '--token-file', server.tokenFile!, '--', '/bin/echo', 'ca'],
      undefined,
      trustingCa,
    );
    expect(verified.stderr.toString()).toBe('');
    expect(verified.stdout.toString()).toBe('ca\n');
    expect(verified.code).toBe(0);
    // The certificate names 127.0.0.1, not localhost: a valid chain for another name is refused.
    const wrongName = await tetherRun(
      ['--server', `wss://localhost:${port}`, '--token-file', server.tokenFile!, '--', '/bin/echo', 'ca'],
      undefined,
      trustingCa,
    );
    expect(wrongName.code).toBe(255);
    expect(wrongName.stderr.toString()).toMatch(/could not be verified \(ERR_TLS_CERT_ALTNAME_INVALID\)/);
    // Without the CA, the same certificate is only a certificate nobody vouches for.
    const unknownCa = await tetherRun([
      '--server',
      server.url!,
      '--token-file',
      server.tokenFile!,
      '--',
      '/bin/echo',
      'ca',
    ]);
    expect(unknownCa.code).toBe(255);
    expect(unknownCa.stderr.toString()).toContain(cert.fingerprint);
  });
});

describe('tether run failures', () => {
  it('exits 255 with a clear message when no server answers', async () => {
    const result = await tetherRun(['--server', 'ws://127.0.0.1:1', '--', '/bin/true']);
    expect(result.code).toBe(255);
    expect(result.stderr.toString()).toMatch(/Could not connect to ws:\/\/127\.0\.0\.1:1/);
  });

  it('refuses a missing target with a usage message', async () => {
    const result = await tetherRun(['--', '/bin/true']);
    expect(result.code).toBe(255);
    expect(result.stderr.toString()).toMatch(
      /--server ws:\/\/HOST:PORT, --ssh HOST, --stdio "COMMAND", --container NAME or --exec "PREFIX"/,
    );
  });
});
