// What a new shell starts as, from its environment's terminal profile.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellLaunch, shellOfArgv } from '../../../../electron/app/processes/shell-launch';
import { EMPTY_TERMINAL_PROFILE, type TerminalProfile } from '../../../../shared/ipc';

const context = {
  loginShell: '/bin/bash',
  home: '/home/ann',
  workspaceFolder: null,
  shellIntegration: false,
};
const profile = (patch: Partial<TerminalProfile>) => ({ ...EMPTY_TERMINAL_PROFILE, ...patch });

describe('shellLaunch', () => {
  it('with the empty profile starts the login shell at home, as before profiles', () => {
    expect(shellLaunch(EMPTY_TERMINAL_PROFILE, context)).toEqual({
      argv: ['/bin/bash', '-l'],
      cwd: '/home/ann',
      env: {},
    });
    expect(shellLaunch(EMPTY_TERMINAL_PROFILE, { ...context, loginShell: null }).argv).toEqual([
      '/bin/sh',
      '-l',
    ]);
  });

  it('starts the profile shell with exactly its arguments', () => {
    expect(shellLaunch(profile({ shell: '/bin/zsh', args: ['-i'] }), context).argv).toEqual([
      '/bin/zsh',
      '-i',
    ]);
    expect(shellLaunch(profile({ shell: 'fish' }), context).argv).toEqual(['fish']);
  });

  it('picks the folder: the caller, the profile (~ is home), the workspace folder, home', () => {
    const inWorkspace = { ...context, workspaceFolder: '/srv/app' };
    expect(shellLaunch(EMPTY_TERMINAL_PROFILE, inWorkspace).cwd).toBe('/srv/app');
    expect(shellLaunch(profile({ cwd: '~/src' }), inWorkspace).cwd).toBe('/home/ann/src');
    expect(shellLaunch(profile({ cwd: '~' }), inWorkspace).cwd).toBe('/home/ann');
    expect(shellLaunch(profile({ cwd: '/opt' }), inWorkspace).cwd).toBe('/opt');
    expect(shellLaunch(profile({ cwd: '/opt' }), inWorkspace, { cwd: '/tmp' }).cwd).toBe('/tmp');
  });

  it('sets the profile variables, under the caller’s', () => {
    const vars = profile({
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    });
    expect(shellLaunch(vars, context, { env: { B: 'caller' } }).env).toEqual({ A: '1', B: 'caller' });
  });

  it('runs the start commands in sh before exec-ing the shell, which keeps their exports and cd', () => {
    const launch = shellLaunch(
      profile({
        shell: '/bin/sh',
        args: ['-c', 'echo "$GREETING in $PWD"'],
        startCommands: ['export GREETING=hi', 'cd /tmp'],
      }),
      context,
    );
    expect(launch.argv[0]).toBe('/bin/sh');
    expect(shellOfArgv(launch.argv)).toEqual(['/bin/sh', '-c', 'echo "$GREETING in $PWD"']);
    const [program, ...args] = launch.argv;
    expect(execFileSync(program ?? '', args, { encoding: 'utf8' })).toBe('hi in /tmp\n');
  });

  it('leaves an argv that is no start-command wrapper as it is', () => {
    for (const argv of [
      ['/bin/bash', '-l'],
      ['/bin/sh', '-c', 'exec "$@"', 'other', 'x'],
      ['/bin/sh', '-c', 'ls'],
    ])
      expect(shellOfArgv(argv)).toEqual(argv);
  });

  it('integrates bash, zsh and fish started plainly, and nothing else', () => {
    const on = { ...context, shellIntegration: true };
    const login = shellLaunch(EMPTY_TERMINAL_PROFILE, on).argv;
    expect(login.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(login[2]).toContain('--rcfile');
    expect(shellOfArgv(login)).toEqual(['/bin/bash', '-l']);
    for (const shell of ['/usr/bin/zsh', 'fish'])
      expect(shellOfArgv(shellLaunch(profile({ shell, args: ['-l'] }), on).argv)).toEqual([shell, '-l']);
    // Another shell, a shell with a script or command, or the setting off: as before.
    expect(shellLaunch(profile({ shell: '/bin/dash' }), on).argv).toEqual(['/bin/dash']);
    expect(shellLaunch(profile({ shell: 'bash', args: ['-c', 'ls'] }), on).argv).toEqual([
      'bash',
      '-c',
      'ls',
    ]);
    expect(shellLaunch(EMPTY_TERMINAL_PROFILE, context).argv).toEqual(['/bin/bash', '-l']);
  });
});
