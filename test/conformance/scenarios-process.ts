// Conformance scenarios for process/start, read, write, signal and terminate: pipes and ttys,
// environments, spawn failures, long polls, read selection, write dedup and process groups.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RpcPeer } from '../support/rpc-peer';
import {
  PROCESS_WAIT_MS,
  b64,
  collectProcess,
  collectProcessBytes,
  looseError,
  readSummary,
  sh,
  sleep,
  startParams,
  unb64,
  type Scenario,
} from './scenario-kit';
import { pidAlive } from '../support/pids';

/** Waits until the stdout+pty text of `processId` seen in notifications contains `text`. */
async function outputContains(peer: RpcPeer, processId: string, text: string): Promise<void> {
  const seen = (): string =>
    peer
      .notifications('process/output')
      .filter((n) => n.params.processId === processId)
      .sort((a, b) => Number(a.params.seq) - Number(b.params.seq))
      .map((n) => unb64(n.params.chunk))
      .join('');
  const deadline = Date.now() + PROCESS_WAIT_MS;
  while (!seen().includes(text)) {
    if (Date.now() > deadline)
      throw new Error(`output of ${processId} never contained ${JSON.stringify(text)}: ${seen()}`);
    await peer
      .notification('process/output', (p) => p.processId === processId && seen().includes(text), 500)
      .catch(() => undefined);
  }
}

/** Waits for the output notification with exactly `seq` for `processId`. */
const outputSeq = (peer: RpcPeer, processId: string, seq: number) =>
  peer.notification('process/output', (p) => p.processId === processId && p.seq === seq, PROCESS_WAIT_MS);

export const processScenarios: Scenario[] = [
  {
    name: 'pipes: stdout and stderr, exit code, seq order, exited before closed, read after close',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const start = await peer.request(
        'process/start',
        startParams('p1', sh('echo hi; echo oops >&2; exit 3'), ctx.uri()),
      );
      ctx.record('start', start);
      ctx.record('outcome', await collectProcess(peer, 'p1'));
      const read = (await peer.call('process/read', {
        processId: 'p1',
        afterSeq: 0,
        maxBytes: null,
        waitMs: 0,
      })) as Record<string, unknown>;
      const lastSeq = Math.max(...peer.notifications().map((n) => Number(n.params.seq ?? 0)));
      ctx.record('read', readSummary(read));
      ctx.record('nextSeq follows closed', read.nextSeq === lastSeq + 1);
      ctx.record('read defaults', readSummary(await peer.call('process/read', { processId: 'p1' })));
    },
  },
  {
    name: 'pipes: bytes that are not UTF-8 reach stdout and stderr unchanged',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call(
        'process/start',
        startParams('raw', sh("printf 'a\\377\\376b\\300\\n'; printf 'err\\377\\n' >&2"), ctx.uri()),
      );
      const outcome = await collectProcessBytes(peer, 'raw');
      // Asserted, not only compared: two servers that both mangled the bytes would agree.
      expect(outcome.stdout).toEqual(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc0, 0x0a]));
      expect(outcome.stderr).toEqual(Buffer.from([0x65, 0x72, 0x72, 0xff, 0x0a]));
      ctx.record('raw', await collectProcess(peer, 'raw'));
    },
  },
  {
    name: 'tty: pty stream with CRLF, stdin is a terminal, writes echo, ^D ends cat',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call(
        'process/start',
        startParams('t1', sh("[ -t 0 ] && [ -t 1 ] && echo is-a-tty; printf 'a\\nb\\n'"), ctx.uri(), {
          tty: true,
        }),
      );
      ctx.record('printf', await collectProcess(peer, 't1'));
      await peer.call('process/start', startParams('t2', ['/bin/cat'], ctx.uri(), { tty: true }));
      ctx.record(
        'write',
        await peer.request('process/write', { processId: 't2', chunk: b64('hello\n'), writeId: '1' }),
      );
      await outputContains(peer, 't2', 'hello\r\nhello\r\n');
      await peer.call('process/write', { processId: 't2', chunk: b64('\x04'), writeId: '2' });
      ctx.record('cat', await collectProcess(peer, 't2'));
    },
  },
  {
    name: 'tty: a process that closes its terminal before exiting is not hung up',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      // Like cat after ^D (it closes stdin, then stdout on the way out): the terminal's last slave
      // descriptor closes while the process still runs, which must not hang it up.
      const script = 'echo bye; exec 0<&- 1>&- 2>&-; sleep 0.3; exit 7';
      await peer.call('process/start', startParams('quiet', sh(script), ctx.uri(), { tty: true }));
      ctx.record('closed its terminal', await collectProcess(peer, 'quiet'));
    },
  },
  {
    name: 'stdin: pipeStdin true feeds cat, false gives stdinClosed, unknown process',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('c1', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      ctx.record(
        'write',
        await peer.request('process/write', { processId: 'c1', chunk: b64('hello\n'), writeId: 'w-1' }),
      );
      ctx.record(
        'empty chunk',
        await peer.request('process/write', { processId: 'c1', chunk: '', writeId: 'w-2' }),
      );
      await outputContains(peer, 'c1', 'hello\n');
      await peer.call('process/terminate', { processId: 'c1' });
      ctx.record('cat', await collectProcess(peer, 'c1'));
      await peer.call('process/start', startParams('c2', ['/bin/cat'], ctx.uri(), { pipeStdin: false }));
      ctx.record(
        'no stdin',
        await peer.request('process/write', { processId: 'c2', chunk: b64('x'), writeId: '1' }),
      );
      ctx.record('cat without stdin', await collectProcess(peer, 'c2'));
      ctx.record(
        'unknown',
        await peer.request('process/write', { processId: 'nope', chunk: b64('x'), writeId: '1' }),
      );
      ctx.record(
        'empty writeId',
        await peer.request('process/write', { processId: 'c2', chunk: b64('x'), writeId: '' }),
      );
      ctx.record(
        'bad base64',
        looseError(await peer.request('process/write', { processId: 'c2', chunk: '!!', writeId: '3' })),
      );
      ctx.record(
        'missing writeId',
        looseError(await peer.request('process/write', { processId: 'c2', chunk: '' })),
      );
    },
  },
  {
    name: 'write dedup: the same writeId twice is written once; writes after exit are accepted',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('d', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      ctx.record(
        'w1',
        await peer.request('process/write', { processId: 'd', chunk: b64('one\n'), writeId: 'a' }),
      );
      ctx.record(
        'w1 again',
        await peer.request('process/write', { processId: 'd', chunk: b64('one\n'), writeId: 'a' }),
      );
      ctx.record(
        'w2',
        await peer.request('process/write', { processId: 'd', chunk: b64('two\n'), writeId: 'b' }),
      );
      await outputContains(peer, 'd', 'two\n');
      await peer.call('process/signal', { processId: 'd', signal: 'interrupt' });
      ctx.record('outcome', await collectProcess(peer, 'd'));
      ctx.record(
        'write after exit',
        await peer.request('process/write', { processId: 'd', chunk: b64('x'), writeId: 'c' }),
      );
    },
  },
  {
    name: 'write after close: pipe and tty processes that closed, and one that closed its own stdin',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const write = (processId: string, writeId: string, text = 'x') =>
        peer.request('process/write', { processId, chunk: b64(text), writeId });
      await peer.call('process/start', startParams('pc', ['/bin/true'], ctx.uri(), { pipeStdin: true }));
      ctx.record('pipe process', await collectProcess(peer, 'pc'));
      ctx.record('pipe write after closed', await write('pc', '1'));
      ctx.record('pipe write after closed, 64 KiB', await write('pc', '2', 'y'.repeat(65_536)));
      await peer.call('process/start', startParams('tc', ['/bin/true'], ctx.uri(), { tty: true }));
      ctx.record('tty process', await collectProcess(peer, 'tc'));
      ctx.record('tty write after closed', await write('tc', '1'));
      // The program closed its stdin and still runs: the bytes have nowhere to go.
      const script = 'exec 0<&-; echo closed-stdin; sleep 1';
      await peer.call('process/start', startParams('own', sh(script), ctx.uri(), { pipeStdin: true }));
      await outputContains(peer, 'own', 'closed-stdin\n');
      ctx.record('write to a stdin the program closed', await write('own', '1'));
      ctx.record('again', await write('own', '2'));
      ctx.record('own', await collectProcess(peer, 'own'));
    },
  },
  {
    name: 'write after terminate: a pipe process killed and closed refuses the write',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('wk', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      ctx.record(
        'before',
        await peer.request('process/write', { processId: 'wk', chunk: b64('a\n'), writeId: '1' }),
      );
      await outputContains(peer, 'wk', 'a\n');
      ctx.record('terminate', await peer.request('process/terminate', { processId: 'wk' }));
      ctx.record('outcome', await collectProcess(peer, 'wk'));
      const write = await peer.request('process/write', { processId: 'wk', chunk: b64('x'), writeId: '2' });
      ctx.record('write after terminated and closed', looseError(write));
    },
  },
  {
    name: 'arg0 overrides the name the program sees',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('a0', sh('echo $0'), ctx.uri(), { arg0: 'myzero' }));
      ctx.record('arg0', await collectProcess(peer, 'a0'));
      await peer.call('process/start', startParams('a1', sh('echo $0'), ctx.uri()));
      ctx.record('default', await collectProcess(peer, 'a1'));
    },
  },
  {
    name: 'env: exactly the given map without envPolicy; argv[0] found on the server PATH; cwd honoured',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call(
        'process/start',
        startParams('e1', ['/usr/bin/env'], ctx.uri(), { env: { A: '1', B: 'two words' } }),
      );
      ctx.record('exact env', await collectProcess(peer, 'e1'));
      await peer.call('process/start', startParams('e2', ['env'], ctx.uri(), { env: {} }));
      ctx.record('empty env, bare argv[0]', await collectProcess(peer, 'e2'));
      await peer.call('process/start', startParams('e3', ['/bin/pwd'], ctx.uri('')));
      ctx.record('cwd', await collectProcess(peer, 'e3'));
    },
  },
  {
    name: 'envPolicy: inherit none/core/all with set, exclude, includeOnly and env overlay',
    run: async (ctx) => {
      const { peer, environmentInfo } = await ctx.session();
      // Codex puts its own helper directories (environmentInfo.prependPathDirs) in front of PATH.
      const prepended = ((environmentInfo.prependPathDirs as string[] | undefined) ?? []).map(
        (uri) => `${fileURLToPath(uri)}:`,
      );
      const policies: Record<string, unknown> = {
        none: {
          inherit: 'none',
          ignoreDefaultExcludes: false,
          exclude: [],
          set: { S: 'set' },
          includeOnly: [],
        },
        core: { inherit: 'core', ignoreDefaultExcludes: false, exclude: [], set: {}, includeOnly: [] },
        excludeAll: {
          inherit: 'all',
          ignoreDefaultExcludes: false,
          exclude: ['*'],
          set: { S: '1' },
          includeOnly: [],
        },
        includeOnly: {
          inherit: 'all',
          ignoreDefaultExcludes: true,
          exclude: [],
          set: {},
          includeOnly: ['pAtH'],
        },
      };
      for (const [name, envPolicy] of Object.entries(policies)) {
        const id = `env-${name}`;
        await peer.call(
          'process/start',
          startParams(id, ['/usr/bin/env'], ctx.uri(), {
            env: { E: 'env', S: 'overlay' },
            extra: { envPolicy },
          }),
        );
        const outcome = await collectProcess(peer, id);
        const lines = outcome.stdout
          .split('\n')
          .map((line) => prepended.reduce((l, dir) => l.replace(`=${dir}`, '='), line));
        ctx.record(name, lines.sort());
      }
      ctx.record(
        'incomplete policy',
        looseError(
          await peer.request(
            'process/start',
            startParams('bad', ['/usr/bin/env'], ctx.uri(), { extra: { envPolicy: { inherit: 'none' } } }),
          ),
        ),
      );
    },
  },
  {
    name: 'spawn failures: -32603 with data.kind, nothing registered; empty argv; duplicate id',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const noExec = path.join(ctx.scratch, 'no-exec');
      writeFileSync(noExec, '#!/bin/sh\necho hi\n');
      chmodSync(noExec, 0o644);
      const garbage = path.join(ctx.scratch, 'garbage');
      writeFileSync(garbage, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 2, 3, 0, 0, 0]));
      chmodSync(garbage, 0o755);
      ctx.record(
        'missing program',
        await peer.request('process/start', startParams('f1', ['/nonexistent/prog'], ctx.uri())),
      );
      ctx.record(
        'missing cwd',
        await peer.request('process/start', startParams('f2', ['/bin/true'], ctx.uri('missing-dir'))),
      );
      ctx.record(
        'not executable',
        await peer.request('process/start', startParams('f3', [noExec], ctx.uri())),
      );
      ctx.record('bad format', await peer.request('process/start', startParams('f4', [garbage], ctx.uri())));
      ctx.record('read after failure', await peer.request('process/read', { processId: 'f1' }));
      ctx.record(
        'retry same id',
        await peer.request('process/start', startParams('f1', sh('exit 0'), ctx.uri())),
      );
      ctx.record('empty argv', await peer.request('process/start', startParams('f5', [], ctx.uri())));
      ctx.record(
        'duplicate id',
        await peer.request('process/start', startParams('f1', sh('exit 0'), ctx.uri())),
      );
      ctx.record(
        'processId not a string',
        looseError(
          await peer.request(
            'process/start',
            startParams('x', ['/bin/true'], ctx.uri(), { extra: { processId: 5 } }),
          ),
        ),
      );
      ctx.record(
        'unknown fields ignored',
        await peer.request(
          'process/start',
          startParams('f6', sh('exit 0'), ctx.uri(), { extra: { somethingNew: 1 } }),
        ),
      );
      ctx.record(
        'empty process id',
        await peer.request('process/start', startParams('', sh('exit 0'), ctx.uri())),
      );
      ctx.record('f1', await collectProcess(peer, 'f1'));
    },
  },
  {
    name: 'long poll: returns early on output, empty after waitMs, at once when an exit is unseen',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      // The output comes from the process itself when the test creates `go`: a write on this
      // connection would queue behind the poll on a server that serves requests one at a time.
      const script = 'while [ ! -f go ]; do sleep 0.02; done; echo wake; exec cat';
      await peer.call('process/start', startParams('lp', sh(script), ctx.uri(), { pipeStdin: true }));
      ctx.record(
        'empty after timeout',
        readSummary(await peer.call('process/read', { processId: 'lp', afterSeq: 0, waitMs: 200 })),
      );
      const pollId = peer.sendRequest('process/read', { processId: 'lp', afterSeq: 0, waitMs: 60_000 });
      await sleep(100);
      writeFileSync(path.join(ctx.scratch, 'go'), '');
      const poll = await peer.response(pollId, PROCESS_WAIT_MS);
      ctx.record('woken by output', readSummary(poll.result as Record<string, unknown>));
      await peer.call('process/terminate', { processId: 'lp' });
      await peer.notification('process/closed', (p) => p.processId === 'lp', PROCESS_WAIT_MS);
      const afterExit = await peer.call(
        'process/read',
        { processId: 'lp', afterSeq: 1, waitMs: 60_000 },
        PROCESS_WAIT_MS,
      );
      ctx.record('exit not yet seen returns at once', readSummary(afterExit));
    },
  },
  {
    name: 'read selection: whole chunks, maxBytes, nextSeq rules',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('r', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      const pieces = ['aaaa', 'bbbbbb', 'cc'];
      for (const [i, piece] of pieces.entries()) {
        await peer.call('process/write', { processId: 'r', chunk: b64(piece), writeId: String(i) });
        await outputSeq(peer, 'r', i + 1);
      }
      const read = async (params: Record<string, unknown>) => {
        const result = (await peer.call('process/read', { processId: 'r', ...params })) as Record<
          string,
          unknown
        >;
        const chunks = result.chunks as Array<{ seq: number; chunk: string }>;
        return {
          chunks: chunks.map((c) => [c.seq, unb64(c.chunk)]),
          nextSeq: result.nextSeq,
          exited: result.exited,
        };
      };
      ctx.record('all', await read({ afterSeq: 0 }));
      ctx.record('maxBytes 0', await read({ afterSeq: 0, maxBytes: 0 }));
      ctx.record('maxBytes 1', await read({ afterSeq: 0, maxBytes: 1 }));
      ctx.record('maxBytes 9', await read({ afterSeq: 0, maxBytes: 9 }));
      ctx.record('maxBytes 10', await read({ afterSeq: 0, maxBytes: 10 }));
      ctx.record('maxBytes 11', await read({ afterSeq: 0, maxBytes: 11 }));
      ctx.record('afterSeq 1', await read({ afterSeq: 1 }));
      ctx.record('afterSeq 1 maxBytes 6', await read({ afterSeq: 1, maxBytes: 6 }));
      ctx.record('afterSeq 3', await read({ afterSeq: 3 }));
      ctx.record('afterSeq beyond', await read({ afterSeq: 99 }));
      ctx.record('afterSeq null', await read({ afterSeq: null, maxBytes: null, waitMs: null }));
      ctx.record(
        'negative afterSeq',
        looseError(await peer.request('process/read', { processId: 'r', afterSeq: -1 })),
      );
      ctx.record(
        'string maxBytes',
        looseError(await peer.request('process/read', { processId: 'r', maxBytes: '1' })),
      );
      await peer.call('process/terminate', { processId: 'r' });
      await peer.notification('process/closed', (p) => p.processId === 'r', PROCESS_WAIT_MS);
      ctx.record('after close', await read({ afterSeq: 0 }));
      ctx.record('after close maxBytes', await read({ afterSeq: 0, maxBytes: 4 }));
      ctx.record('after close past chunks', await read({ afterSeq: 3 }));
      ctx.record('unknown', await peer.request('process/read', { processId: 'nope' }));
    },
  },
  {
    name: 'signal: interrupt exits 130; unknown and exited processes answer {}; bad names -32602',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('s', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      ctx.record('interrupt', await peer.request('process/signal', { processId: 's', signal: 'interrupt' }));
      ctx.record('outcome', await collectProcess(peer, 's'));
      ctx.record('exited', await peer.request('process/signal', { processId: 's', signal: 'interrupt' }));
      ctx.record('unknown', await peer.request('process/signal', { processId: 'nope', signal: 'interrupt' }));
      ctx.record(
        'bad name',
        looseError(await peer.request('process/signal', { processId: 's', signal: 'SIGINT' })),
      );
      ctx.record('missing signal', looseError(await peer.request('process/signal', { processId: 's' })));
    },
  },
  {
    name: 'terminate: SIGKILL to the process group (137), then running false',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('k', sh('sleep 1000 & echo $!; wait'), ctx.uri()));
      const first = await peer.notification('process/output', (p) => p.processId === 'k', PROCESS_WAIT_MS);
      const child = Number(unb64(first.params.chunk).trim());
      expect(pidAlive(child)).toBe(true);
      ctx.record('terminate', await peer.request('process/terminate', { processId: 'k' }));
      const outcome = await collectProcess(peer, 'k');
      ctx.record('outcome', { ...outcome, stdout: outcome.stdout.replace(/\d+/, '<pid>') });
      const deadline = Date.now() + PROCESS_WAIT_MS;
      while (pidAlive(child) && Date.now() < deadline) await sleep(20);
      ctx.record('background child killed', !pidAlive(child));
      ctx.record('terminate again', await peer.request('process/terminate', { processId: 'k' }));
      ctx.record('terminate unknown', await peer.request('process/terminate', { processId: 'nope' }));
      const read = readSummary(await peer.call('process/read', { processId: 'k' }));
      ctx.record('read', JSON.parse(JSON.stringify(read).replace(/\d+\\n/, '<pid>\\n')));
    },
  },
];
