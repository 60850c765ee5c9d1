// Other clients' processes through the AppService: against Tether's server another client's
// process is listed (and its start announced), watched read-only from its first output, then taken
// over so input reaches it and its exit code shows; against codex's server the list says it is
// not available there.
import { describe, expect, it } from 'vitest';
import { startServer } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';
import { createHarness, outputOf, outputText, waitFor } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

describe("other clients' processes on Tether's server", () => {
  const rig = remoteAppRig();

  it('lists, watches read-only, takes over and follows another client to its exit code', async () => {
    const { h, envId, server } = rig;
    expect(await h.invoke('processes.others', { envId })).toEqual({
      available: true,
      reason: null,
      processes: [],
    });
    const agent = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
    try {
      await agent.call('initialize', { clientName: 'an-agent' });
      agent.notify('initialized', {});
      await agent.call('process/start', {
        processId: 'job',
        argv: ['/bin/sh', '-c', 'echo job-started; read answer; echo "job got $answer"; exit 4'],
        cwd: 'file:///tmp',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        tty: false,
        pipeStdin: true,
      });
      await waitFor(
        () => h.eventsNamed('processes.othersChanged').some((e) => e.envId === envId),
        'announced',
      );
      const { processes } = await h.invoke('processes.others', { envId });
      expect(processes).toMatchObject([
        { clientName: 'an-agent', processId: 'job', cwd: '/tmp', state: 'running' },
      ]);

      const view = await h.invoke('processes.watch', {
        envId,
        sessionId: processes[0]!.sessionId,
        processId: 'job',
      });
      expect(view.watched).toMatchObject({ clientName: 'an-agent', control: false, kept: false });
      await waitFor(() => outputOf(h, view.processId).includes('job-started'), 'the first output, retained');
      const key = { envId, processId: view.processId };
      const refused = await h.raw('processes.write', { ...key, data: 'early\n' });
      expect(JSON.stringify(refused)).toMatch(/Read-only/);

      expect((await h.invoke('processes.takeOver', key)).watched?.control).toBe(true);
      await h.invoke('processes.write', { ...key, data: 'yes\n' });
      await waitFor(() => outputOf(h, view.processId).includes('job got yes'), 'the answer to our input');
      await waitFor(
        async () =>
          (await h.invoke('processes.list', { envId })).find((p) => p.processId === view.processId)
            ?.exitCode === 4,
        'the exit code',
      );
      await waitFor(() => agent.outputOf('job').includes('job got yes'), "the owner's own view");
    } finally {
      agent.drop();
    }
  });
});

describe("another client's process across an app restart", () => {
  it('is still watched, read-only, and its output comes back from the start', async () => {
    const server = await startServer('tether', 'ws');
    const agent = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
    let h = await createHarness({ autoConnect: false });
    try {
      await agent.call('initialize', { clientName: 'an-agent' });
      agent.notify('initialized', {});
      await agent.call('process/start', {
        processId: 'job',
        argv: ['/bin/sh', '-c', 'echo job-started; sleep 30'],
        cwd: 'file:///tmp',
        env: {},
        tty: false,
      });
      const { id: envId } = await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: server.url! },
        token: server.token,
      });
      const others = await waitFor(async () => {
        const listed = await h.invoke('processes.others', { envId }).catch(() => null);
        return listed?.processes.length ? listed.processes : null;
      }, "the agent's process");
      const view = await h.invoke('processes.watch', {
        envId,
        sessionId: others[0]!.sessionId,
        processId: 'job',
      });
      await waitFor(() => outputOf(h, view.processId).includes('job-started'), 'the first output');

      await h.close({ keepDataDir: true });
      h = await createHarness({ dataDir: h.dataDir });
      const restored = await waitFor(
        async () => (await h.invoke('processes.list', { envId })).find((p) => p.processId === view.processId),
        'the watched process listed again',
      );
      expect(restored.watched).toMatchObject({ clientName: 'an-agent', control: false });
      // A renderer of the new app: the retained output, read back from the server through the resumed session.
      await waitFor(async () => {
        const replayed = await h.invoke('processes.replay', {
          envId,
          processId: view.processId,
          afterSeq: 0,
        });
        return outputText(replayed.events).includes('job-started');
      }, 'its output replayed');
      expect(
        JSON.stringify(await h.raw('processes.write', { envId, processId: view.processId, data: 'x' })),
      ).toMatch(/Read-only/);
    } finally {
      await h.close();
      agent.drop();
      await server.stop();
    }
  });
});

describe("other clients' processes on codex's server", () => {
  const rig = remoteAppRig({ impl: 'codex' });

  it('says the list is not available there', async () => {
    const result = await rig.h.invoke('processes.others', { envId: rig.envId });
    expect(result.available).toBe(false);
    expect(result.reason).toMatch(/^Not available on this server/);
  });
});
