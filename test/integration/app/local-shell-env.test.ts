// The Local server, started as the Electron app starts it (ELECTRON_RUN_AS_NODE=1 in its own
// environment, here on Node, which ignores it), must not hand that variable to what it runs: a
// command under pipes and a login shell under a pty both print their environment without it,
// while the server process itself (read from /proc) does carry it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, outputOf, waitFor, type Harness } from './app-harness';

const LAUNCH_VAR = 'ELECTRON_RUN_AS_NODE';

describe('processes of the Local environment started as in Electron', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ electronLocalServer: true });
    await waitFor(
      async () => (await h.invoke('environments.list', {}))[0]?.link.kind === 'connected',
      'local connected',
    );
  });
  afterEach(async () => {
    await h?.close();
  });

  it('a command under pipes does not inherit ELECTRON_RUN_AS_NODE, though its server has it', async () => {
    // The parent of a pipe child is the server process itself.
    const script = `tr '\\0' '\\n' < /proc/$PPID/environ | grep -c '^${LAUNCH_VAR}=1$'; echo ---; env; echo end-$((6*7))`;
    const view = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['sh', '-c', script],
      tty: false,
    });
    // The exit can be reported before the last output has reached the app: wait for the output's end.
    await waitFor(() => outputOf(h, view.processId).includes('end-42'), 'the command printed its env');
    const [serverCount, childEnv] = outputOf(h, view.processId).split('---\n');
    expect(serverCount?.trim()).toBe('1');
    expect(childEnv).toMatch(/^PATH=/m);
    expect(childEnv).not.toContain(LAUNCH_VAR);
  });

  it('a login shell under a pty does not inherit it either', async () => {
    const shell = await h.invoke('processes.start', { envId: 'local', tty: true });
    await h.invoke('processes.write', {
      envId: 'local',
      processId: shell.processId,
      data: 'env; echo "done-$((6*7))"\r',
    });
    await waitFor(() => outputOf(h, shell.processId).includes('done-42'), 'the shell printed its env');
    const output = outputOf(h, shell.processId);
    expect(output).toMatch(/^PATH=/m);
    expect(output).not.toContain(`${LAUNCH_VAR}=`);
  });
});
