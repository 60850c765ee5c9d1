// Conformance scenarios for the handshake, the initialize gate and session resume.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import {
  PROCESS_WAIT_MS,
  b64,
  collectProcess,
  looseError,
  readSummary,
  sh,
  sleep,
  startParams,
  unb64,
  type Scenario,
} from './scenario-kit';

/** How long the resume scenario lets the server read output made while detached (see there). */
const DETACHED_READ_SETTLE_MS = 500;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Polls until `file` exists (written by a child process), bounded. */
async function fileAppears(file: string): Promise<void> {
  const deadline = Date.now() + PROCESS_WAIT_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await sleep(20);
  }
}

export const sessionScenarios: Scenario[] = [
  {
    name: 'handshake: initialize, initialized, status and info',
    run: async (ctx) => {
      const peer = await ctx.connect();
      const init = await peer.request('initialize', { clientName: 'conformance', resumeSessionId: null });
      const result = init.result as { sessionId: string; environmentInfo: Record<string, unknown> };
      expect(result.sessionId).toMatch(UUID_V4);
      expect(result.environmentInfo).toMatchObject({
        shell: { name: expect.any(String), path: expect.any(String) },
        executorVersion: expect.any(String),
        cwd: expect.stringMatching(/^file:\/\//),
        platformOs: 'linux',
        capabilities: expect.any(Object),
      });
      ctx.record('initialize', init);
      peer.notify('initialized');
      peer.notify('initialized', {});
      ctx.record('status', await peer.request('environment/status'));
      ctx.record('status with null params', await peer.request('environment/status', null));
      const info = await peer.request('environment/info', {});
      expect(info.result).toEqual(result.environmentInfo);
      ctx.record('status with string id', await peer.request('environment/status', {}, { id: 'str-id' }));
    },
  },
  {
    name: 'gate: every method before initialize is refused, params are checked first',
    run: async (ctx) => {
      const peer = await ctx.connect();
      ctx.record('status', await peer.request('environment/status'));
      ctx.record('info', await peer.request('environment/info'));
      ctx.record('start', await peer.request('process/start', startParams('p', ['/bin/true'], ctx.uri())));
      ctx.record('read', await peer.request('process/read', { processId: 'p' }));
      ctx.record('readFile', await peer.request('fs/readFile', { path: ctx.uri('x') }));
      ctx.record('start with bad params', looseError(await peer.request('process/start', {})));
      ctx.record('initialize still works', await peer.request('initialize', { clientName: 'c' }));
    },
  },
  {
    name: 'gate: methods between initialize and initialized are refused',
    run: async (ctx) => {
      const peer = await ctx.connect();
      await peer.call('initialize', { clientName: 'c' });
      ctx.record('status', await peer.request('environment/status'));
      ctx.record('start', await peer.request('process/start', startParams('p', ['/bin/true'], ctx.uri())));
      ctx.record('walk', await peer.request('fs/getMetadata', { path: ctx.uri() }));
      peer.notify('initialized', { ignored: true });
      ctx.record('status after initialized', await peer.request('environment/status'));
    },
  },
  {
    name: 'initialize twice and initialize params',
    run: async (ctx) => {
      const peer = await ctx.connect();
      ctx.record('missing clientName', looseError(await peer.request('initialize', {})));
      ctx.record(
        'unknown resume id',
        await peer.request('initialize', { clientName: 'c', resumeSessionId: 'nope' }),
      );
      ctx.record(
        'empty resume id',
        await peer.request('initialize', { clientName: 'c', resumeSessionId: '' }),
      );
      ctx.record('retry fresh', await peer.request('initialize', { clientName: 'c' }));
      ctx.record('second initialize', await peer.request('initialize', { clientName: 'c' }));
      peer.notify('initialized');
      ctx.record(
        'second initialize after initialized',
        await peer.request('initialize', { clientName: 'c' }),
      );
    },
  },
  {
    name: 'resume: same session, output made while detached is read back, live output resumes',
    transports: ['ws'],
    run: async (ctx) => {
      const first = await ctx.session();
      const go = path.join(ctx.scratch, 'go');
      const wrote = path.join(ctx.scratch, 'wrote');
      const go2 = path.join(ctx.scratch, 'go2');
      const script = `echo before; while [ ! -f go ]; do sleep 0.02; done; echo during; touch wrote; while [ ! -f go2 ]; do sleep 0.02; done; echo after`;
      await first.peer.call('process/start', startParams('tick', sh(script), ctx.uri()));
      const before = await first.peer.notification('process/output', (p) => p.processId === 'tick');
      ctx.record('before', unb64(before.params.chunk));
      await first.peer.close();
      writeFileSync(go, '');
      await fileAppears(wrote);
      // The echo left the process before `wrote` appeared, but the server reads it on a thread of its
      // own: give it a moment to be read while detached, or a loaded machine sees it pushed live.
      await sleep(DETACHED_READ_SETTLE_MS);

      const second = await ctx.connect();
      const resumed = await second.request('initialize', {
        clientName: 'c',
        resumeSessionId: first.sessionId,
      });
      ctx.record('resume result', resumed);
      second.notify('initialized');
      const gap = (await second.call('process/read', {
        processId: 'tick',
        afterSeq: before.params.seq,
        waitMs: 0,
      })) as Record<string, unknown>;
      ctx.record('read after resume', readSummary(gap));
      ctx.record(
        'output pushed on resume (no replay)',
        second.notifications('process/output').map((n) => unb64(n.params.chunk)),
      );
      writeFileSync(go2, '');
      const after = await second.notification(
        'process/output',
        (p) => p.processId === 'tick',
        PROCESS_WAIT_MS,
      );
      ctx.record('live after resume', unb64(after.params.chunk));
      const exited = await second.notification(
        'process/exited',
        (p) => p.processId === 'tick',
        PROCESS_WAIT_MS,
      );
      ctx.record('exit', exited.params.exitCode);
    },
  },
  {
    name: 'resume: a session still attached elsewhere is refused with -32010',
    transports: ['ws'],
    run: async (ctx) => {
      const first = await ctx.session();
      const second = await ctx.connect();
      ctx.record(
        'resume attached',
        await second.request('initialize', { clientName: 'c', resumeSessionId: first.sessionId }),
      );
      ctx.record(
        'rejected connection may initialize fresh',
        await second.request('initialize', { clientName: 'c' }),
      );
      ctx.record('first still served', await first.peer.request('environment/status'));
    },
  },
  {
    name: 'sessions: process ids are namespaced per session',
    transports: ['ws'],
    run: async (ctx) => {
      const a = await ctx.session();
      const b = await ctx.session();
      expect(a.sessionId).not.toBe(b.sessionId);
      await a.peer.call('process/start', startParams('p1', sh('echo from-a'), ctx.uri()));
      await b.peer.call('process/start', startParams('p1', sh('echo from-b'), ctx.uri()));
      ctx.record('a', await collectProcess(a.peer, 'p1'));
      ctx.record('b', await collectProcess(b.peer, 'p1'));
      ctx.record(
        'a sees no b output',
        a.peer.notifications('process/output').map((n) => unb64(n.params.chunk)),
      );
      ctx.record(
        'write to a',
        await a.peer.request('process/write', { processId: 'p1', chunk: b64('x'), writeId: '1' }),
      );
    },
  },
];
