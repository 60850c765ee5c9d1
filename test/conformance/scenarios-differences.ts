// Scenarios where Tether intentionally differs from codex (see differences.ts): each asserts the
// behaviour expected of the server under test instead of comparing transcripts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { FsErrorKind, ProcessErrorKind, TetherCapability } from '../../shared/protocol';
import {
  PROCESS_WAIT_MS,
  QUIET_WINDOW_MS,
  b64,
  collectProcess,
  readSummary,
  sh,
  sleep,
  startParams,
  type Scenario,
} from './scenario-kit';
import { pidAlive } from '../support/pids';
import type { RpcPeer } from '../support/rpc-peer';
import { waitFor } from '../support/wait';

export const differenceScenarios: Scenario[] = [
  {
    name: 'extensions: capabilities, process/resize, extra signals, fs/rename, fs/open update, pid, error kind',
    differs: 'tether-extensions',
    run: async (ctx) => {
      const { peer, environmentInfo } = await ctx.session();
      const capabilities = environmentInfo.capabilities as Record<string, unknown>;
      const start = (await peer.call(
        'process/start',
        startParams('t', sh('read line; stty size'), ctx.uri(), {
          tty: true,
          extra: { size: { cols: 100, rows: 30 } },
        }),
      )) as Record<string, unknown>;
      const resize = await peer.request('process/resize', { processId: 't', cols: 120, rows: 40 });
      writeFileSync(path.join(ctx.scratch, 'a'), 'A');
      const rename = await peer.request('fs/rename', {
        sourcePath: ctx.uri('a'),
        destinationPath: ctx.uri('b'),
      });
      writeFileSync(path.join(ctx.scratch, 'u'), 'hello world');
      const update = await peer.request('fs/open', { handleId: 'u', path: ctx.uri('u'), mode: 'update' });
      const updateMissing = await peer.request('fs/open', {
        handleId: 'm',
        path: ctx.uri('missing'),
        mode: 'update',
      });
      await peer.call('process/start', startParams('c', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      const terminate = await peer.request('process/signal', { processId: 'c', signal: 'terminate' });
      const unknown = await peer.request('process/read', { processId: 'nope' });
      expect(unknown.error).toMatchObject({ code: -32600, message: 'unknown process id nope' });
      const unknownHandle = await peer.request('fs/readBlock', { handleId: 'nope', offset: 0, len: 1 });
      expect(unknownHandle.error).toMatchObject({ code: -32004, message: 'unknown file handle `nope`' });
      if (ctx.impl === 'codex') {
        for (const name of Object.values(TetherCapability)) expect(capabilities[name]).toBeUndefined();
        expect(start.pid).toBeUndefined();
        expect(resize.error?.code).toBe(-32601);
        expect(rename.error?.code).toBe(-32601);
        expect(update.error?.code).toBe(-32602);
        expect(terminate.error?.code).toBe(-32602);
        expect(unknown.error?.data).toBeUndefined();
        expect(unknownHandle.error?.data).toBeUndefined();
        await peer.call('process/terminate', { processId: 'c' });
        await peer.call('process/terminate', { processId: 't' });
        return;
      }
      for (const name of Object.values(TetherCapability)) expect(capabilities[name], name).toBe(true);
      expect(start.pid).toEqual(expect.any(Number));
      expect(pidAlive(start.pid as number)).toBe(true);
      expect(resize.result).toEqual({});
      await peer.call('process/write', { processId: 't', chunk: b64('\r'), writeId: '1' });
      expect((await collectProcess(peer, 't')).pty).toContain('40 120');
      expect(rename.result).toEqual({});
      expect(existsSync(path.join(ctx.scratch, 'a'))).toBe(false);
      expect(readFileSync(path.join(ctx.scratch, 'b'), 'utf8')).toBe('A');
      // update: the file keeps its bytes; a write lands at its offset; a missing file is -32004.
      expect(update.result).toEqual({ handleId: 'u' });
      await peer.call('fs/writeBlock', { handleId: 'u', offset: 6, chunk: b64('WORLD') });
      await peer.call('fs/close', { handleId: 'u' });
      expect(readFileSync(path.join(ctx.scratch, 'u'), 'utf8')).toBe('hello WORLD');
      expect(updateMissing.error?.code).toBe(-32004);
      expect(terminate.result).toEqual({});
      expect((await collectProcess(peer, 'c')).exitCode).toBe(143);
      expect(unknown.error?.data).toEqual({ kind: ProcessErrorKind.unknownProcess });
      expect(unknownHandle.error?.data).toEqual({ kind: FsErrorKind.unknownFileHandle });
      // A rename that may not replace says "taken" with a kind too (same -32603 and OS text).
      writeFileSync(path.join(ctx.scratch, 'c'), 'C');
      const taken = await peer.request('fs/rename', {
        sourcePath: ctx.uri('c'),
        destinationPath: ctx.uri('b'),
        noReplace: true,
      });
      expect(taken.error).toMatchObject({
        code: -32603,
        message: 'File exists (os error 17)',
        data: { kind: FsErrorKind.exists },
      });
    },
  },
  {
    name: 'write ids: after a resume, a known writeId with other bytes (a client numbering from 1 again)',
    transports: ['ws'],
    differs: 'write-id-reuse',
    run: async (ctx) => {
      const first = await ctx.session();
      await first.peer.call('process/start', startParams('w', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      const write = (peer: RpcPeer, text: string, writeId: string) =>
        peer.call('process/write', { processId: 'w', chunk: b64(text), writeId });
      const stdout = async (peer: RpcPeer): Promise<string> => {
        const read = await peer.call('process/read', { processId: 'w', afterSeq: 0, waitMs: 0 });
        const { streams } = readSummary(read as Record<string, unknown>);
        return String((streams as { stdout?: string }).stdout ?? '');
      };
      expect(await write(first.peer, 'one\n', '1')).toEqual({ status: 'accepted' });
      await first.peer.close();

      const second = await ctx.connect();
      await second.call('initialize', { clientName: 'c', resumeSessionId: first.sessionId });
      second.notify('initialized');
      // A resend (same id, same bytes) is written once by both servers.
      expect(await write(second, 'one\n', '1')).toEqual({ status: 'accepted' });
      // The same id with other bytes is answered `accepted` by both, but only Tether writes it.
      expect(await write(second, 'two\n', '1')).toEqual({ status: 'accepted' });
      expect(await write(second, 'end\n', 'end')).toEqual({ status: 'accepted' });
      // cat echoes in order: once `end` is back, everything written before it is too.
      const deadline = Date.now() + PROCESS_WAIT_MS;
      let seen = await stdout(second);
      while (!seen.endsWith('end\n')) {
        if (Date.now() > deadline) throw new Error(`cat never echoed end: ${JSON.stringify(seen)}`);
        await sleep(20);
        seen = await stdout(second);
      }
      expect(seen).toBe(ctx.impl === 'codex' ? 'one\nend\n' : 'one\ntwo\nend\n');
      await second.call('process/terminate', { processId: 'w' });
    },
  },
  {
    name: 'concurrency: a long poll does not hold up environment/status',
    differs: 'concurrent-requests',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', startParams('q', ['/bin/cat'], ctx.uri(), { pipeStdin: true }));
      const pollId = peer.sendRequest('process/read', { processId: 'q', afterSeq: 0, waitMs: 2_500 });
      const statusId = peer.sendRequest('environment/status');
      await peer.response(pollId, PROCESS_WAIT_MS);
      await peer.response(statusId, PROCESS_WAIT_MS);
      const order = peer
        .responses()
        .map((r) => r.id)
        .filter((id) => id === pollId || id === statusId);
      // Codex answers in arrival order; Tether answers the status while the poll still waits.
      expect(order).toEqual(ctx.impl === 'codex' ? [pollId, statusId] : [statusId, pollId]);
      await peer.call('process/terminate', { processId: 'q' });
    },
  },
  {
    name: 'stdio SIGTERM: processes are killed; Tether exits, codex waits for stdin to close',
    transports: ['stdio'],
    differs: 'stdio-sigterm',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const pidFile = path.join(ctx.scratch, 'pid');
      await peer.call(
        'process/start',
        startParams('s', sh(`echo $$ > ${pidFile}; exec sleep 1000`), ctx.uri()),
      );
      await waitFor(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'),
        'the child wrote its pid',
        PROCESS_WAIT_MS,
      );
      const child = Number(readFileSync(pidFile, 'utf8'));
      const server = ctx.server().child;
      const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
      server.kill('SIGTERM');
      await waitFor(() => !pidAlive(child), 'the managed process is gone', PROCESS_WAIT_MS);
      if (ctx.impl === 'codex') {
        await sleep(QUIET_WINDOW_MS);
        expect(server.exitCode).toBeNull();
        server.stdin?.end();
      }
      expect(await exited).toBe(0);
      await peer.waitForClose();
    },
  },
];
