// A new shell on Local starts as its terminal profile says, through the real AppService and a real
// pty: the workspace folder when the profile names none, the profile's variables, its start
// commands run before the first prompt (their exports carried into the shell), and a folder the
// caller asks for (a split) over the profile's. Commands with an argv are left alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputOf, startLocalApp, waitFor, type LocalApp } from './app-harness';
import { EMPTY_TERMINAL_PROFILE } from '../../../shared/ipc';

describe('terminal profile of Local', () => {
  let app: LocalApp;
  beforeEach(async () => {
    app = await startLocalApp('tether-profile-');
  });
  afterEach(async () => {
    await app?.close();
  });

  /** Starts a shell (optionally in `cwd`), runs `line` in it and returns what it printed. */
  async function shellSays(line: string, cwd?: string): Promise<string> {
    const shell = await app.h.invoke('processes.start', {
      envId: 'local',
      tty: true,
      ...(cwd ? { cwd } : {}),
    });
    await app.h.invoke('processes.write', { envId: 'local', processId: shell.processId, data: `${line}\r` });
    // The output's line (not the echoed command's): at a line start, or right after the shell's
    // mark that its output starts (shell integration).
    // eslint-disable-next-line no-control-regex
    const said = /(?:^|\u0007)(said:.*)$/m;
    await waitFor(() => said.test(outputOf(app.h, shell.processId)), `the shell ran ${line}`);
    return said.exec(outputOf(app.h, shell.processId))?.[1]?.trimEnd() ?? '';
  }

  it('applies the folder, variables and start commands to new shells, not to commands', async () => {
    const local = (await app.h.invoke('environments.list', {}))[0]!;
    expect(local.terminalProfile).toEqual(EMPTY_TERMINAL_PROFILE);
    await app.h.invoke('environments.setWorkspaceFolder', { id: 'local', path: app.dir });
    const terminalProfile = {
      ...EMPTY_TERMINAL_PROFILE,
      env: [{ name: 'GREETING', value: 'hi there' }],
      startCommands: ['export DERIVED="from-$GREETING"'],
    };
    const updated = await app.h.invoke('environments.update', {
      id: 'local',
      draft: { name: local.name, color: local.color, settings: local.settings, terminalProfile },
    });
    expect(updated.terminalProfile).toEqual(terminalProfile);

    expect(await shellSays('echo "said:$GREETING|$DERIVED|$(pwd)"')).toBe(
      `said:hi there|from-hi there|${app.dir}`,
    );
    expect(await shellSays('echo "said:$(pwd)"', '/tmp')).toBe('said:/tmp');

    const command = await app.h.invoke('processes.start', {
      envId: 'local',
      argv: ['sh', '-c', 'echo "said:[$GREETING]"'],
      tty: false,
    });
    await waitFor(() => outputOf(app.h, command.processId).includes('said:'), 'the command printed');
    expect(outputOf(app.h, command.processId)).toContain('said:[]');
  });

  it('refuses a profile with a bad variable name, naming it', async () => {
    const local = (await app.h.invoke('environments.list', {}))[0]!;
    const bad = { ...EMPTY_TERMINAL_PROFILE, env: [{ name: 'NOT-OK', value: '1' }] };
    await expect(
      app.h.invoke('environments.update', {
        id: 'local',
        draft: { name: local.name, color: local.color, settings: local.settings, terminalProfile: bad },
      }),
    ).rejects.toThrow(/"NOT-OK" is not a valid variable name/);
  });
});
