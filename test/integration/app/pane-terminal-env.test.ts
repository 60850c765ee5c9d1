// A shell the app starts in a pane says it is on a 256-colour, truecolor terminal (xterm.js), even
// when the server was started from a plain `xterm` (8 colours), so vim and friends use every colour.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, outputOf, waitFor, type Harness } from './app-harness';

describe('the terminal a pane process sees', () => {
  let h: Harness;
  let savedTerm: string | undefined;
  beforeEach(async () => {
    // The Local server inherits this process's environment, as it inherits the desktop's.
    savedTerm = process.env.TERM;
    process.env.TERM = 'xterm';
    h = await createHarness();
    await waitFor(
      async () => (await h.invoke('environments.list', {}))[0]?.link.kind === 'connected',
      'local connected',
    );
  });
  afterEach(async () => {
    await h?.close();
    if (savedTerm === undefined) delete process.env.TERM;
    else process.env.TERM = savedTerm;
  });

  it('is xterm-256color with truecolor under a pty, whatever TERM the server has', async () => {
    const shell = await h.invoke('processes.start', { envId: 'local', tty: true });
    await h.invoke('processes.write', {
      envId: 'local',
      processId: shell.processId,
      data: 'echo "term=$TERM colorterm=$COLORTERM colors=$(tput colors)"\r',
    });
    await waitFor(() => /colors=\d+/.test(outputOf(h, shell.processId)), 'the shell answered');
    expect(outputOf(h, shell.processId)).toMatch(/term=xterm-256color colorterm=truecolor colors=256/);
  });

  it('keeps an explicit TERM from the caller', async () => {
    const view = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['sh', '-c', 'echo "term=$TERM"'],
      env: { TERM: 'dumb' },
      tty: true,
    });
    await waitFor(() => outputOf(h, view.processId).includes('term='), 'the command printed');
    expect(outputOf(h, view.processId)).toContain('term=dumb');
  });
});
