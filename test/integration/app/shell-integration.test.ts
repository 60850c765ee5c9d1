// Shell integration with real shells through the real AppService and a real server behind a fault
// proxy: bash, zsh and fish read the user's own startup files (a temp HOME whose rc sets a prompt
// and a variable, both still in effect) and mark each command (OSC 133) with its exit status and
// folder (OSC 7), which the app keeps as the shell's command history. A shell whose rc already
// marks its commands is not marked twice, the setting turns it off, and a cut of the link in the
// middle of a command leaves every mark once, in place. Codex's server runs the same start command.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_TERMINAL_PROFILE, type ProcessView, type ShellCommand } from '../../../shared/ipc';
import { startProxiedServer, type ProxiedServer } from '../../support/proxied-server';
import { createHarness, outputOf, waitFor, type Harness } from './app-harness';

const ESC = '\u001b';
const BEL = '\u0007';

describe('shell integration', () => {
  let remote: ProxiedServer;
  let codex: ProxiedServer;
  let h: Harness;
  let envId = '';
  let codexEnvId = '';
  let dir = '';
  let home = '';
  let integratedHome = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tether-shell-int-'));
    home = path.join(dir, 'home');
    mkdirSync(path.join(home, '.config', 'fish'), { recursive: true });
    mkdirSync(path.join(home, 'work', 'sub dir'), { recursive: true });
    // A login bash reads .profile, which reads .bashrc (as Debian's skeleton has it).
    writeFileSync(path.join(home, '.profile'), '[ -r ~/.bashrc ] && . ~/.bashrc\n');
    writeFileSync(path.join(home, '.bashrc'), "PS1='my-bash> '\nexport MY_RC_VAR=from-bashrc\n");
    writeFileSync(path.join(home, '.zshrc'), "PS1='my-zsh%# '\nexport MY_RC_VAR=from-zshrc\n");
    writeFileSync(
      path.join(home, '.config', 'fish', 'config.fish'),
      "function fish_prompt; echo -n 'my-fish> '; end\nset -gx MY_RC_VAR from-config-fish\nset -g fish_greeting\n",
    );
    // A user who integrated bash themselves: their prompt carries their own marks.
    integratedHome = path.join(dir, 'integrated');
    mkdirSync(integratedHome);
    writeFileSync(path.join(integratedHome, '.profile'), '. ~/.bashrc\n');
    writeFileSync(
      path.join(integratedHome, '.bashrc'),
      "PS1='\\[\\e]133;A\\a\\]own-marks> \\[\\e]133;B\\a\\]'\n",
    );
    [remote, codex] = await Promise.all([startProxiedServer('tether'), startProxiedServer('codex')]);
    h = await createHarness({
      autoConnect: false,
      backoff: { rampMs: [0, 50, 100], steadyMs: 200, jitter: 0 },
    });
    const add = async (name: string, server: ProxiedServer) =>
      (
        await h.invoke('environments.add', {
          name,
          color: '#336699',
          settings: { kind: 'ws', url: server.proxy.url() },
          token: server.server.token,
        })
      ).id;
    envId = await add('Remote', remote);
    codexEnvId = await add('Codex', codex);
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).every(
          (e) => e.settings.kind !== 'ws' || e.link.kind === 'connected',
        ),
      'both servers connected',
    );
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all([remote?.stop(), codex?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Sets the environment's profile to `shell -l` with the test's HOME (and a private TMPDIR). */
  async function useShell(id: string, shell: string, shellHome = home): Promise<void> {
    const env = (await h.invoke('environments.list', {})).find((e) => e.id === id)!;
    const terminalProfile = {
      ...EMPTY_TERMINAL_PROFILE,
      shell,
      args: ['-l'],
      cwd: path.join(home, 'work'),
      env: [
        { name: 'HOME', value: shellHome },
        { name: 'TMPDIR', value: dir },
        { name: 'ZDOTDIR', value: shellHome },
      ],
    };
    await h.invoke('environments.update', {
      id,
      draft: { name: env.name, color: env.color, settings: env.settings, terminalProfile },
    });
  }

  function viewOf(processId: string): ProcessView | undefined {
    return h
      .eventsNamed('processes.changed')
      .filter((v) => v.processId === processId)
      .at(-1);
  }

  const commandsOf = (processId: string): ShellCommand[] => viewOf(processId)?.commands ?? [];

  /** Types `line` and waits for the shell to report it ended (its history grows to `count`). */
  async function run(env: string, processId: string, line: string, count: number): Promise<ShellCommand> {
    await h.invoke('processes.write', { envId: env, processId, data: `${line}\r` });
    await waitFor(
      // The history changes as the app reads the output, a moment before it sends that output on.
      () =>
        commandsOf(processId)[count - 1]?.endedAt != null &&
        outputOf(h, processId).split(`${ESC}]133;D`).length > count &&
        outputOf(h, processId).split(`${ESC}]133;B`).length > count + 1,
      `the shell ran ${line}`,
    );
    return commandsOf(processId)[count - 1]!;
  }

  async function startShell(env: string): Promise<string> {
    const shell = await h.invoke('processes.start', { envId: env, tty: true, size: { cols: 120, rows: 30 } });
    // The first prompt's marks: the shell is ready.
    await waitFor(() => outputOf(h, shell.processId).includes(`${ESC}]133;B`), 'the first prompt');
    return shell.processId;
  }

  /** The text between the `C` mark of the `n`th command and its `D`, without escapes and CRs. */
  function outputOfCommand(processId: string, n: number): string {
    const text = outputOf(h, processId);
    const starts = [...text.matchAll(new RegExp(`${ESC}\\]133;C[^${BEL}]*${BEL}`, 'g'))];
    const start = starts[n]!;
    const from = start.index + start[0].length;
    const end = text.indexOf(`${ESC}]133;D`, from);
    return screenText(plain(text.slice(from, end)));
  }

  for (const [shell, prompt, variable] of [
    ['/usr/bin/bash', 'my-bash> ', 'from-bashrc'],
    ['/usr/bin/zsh', 'my-zsh# ', 'from-zshrc'],
    ['/usr/bin/fish', 'my-fish> ', 'from-config-fish'],
  ] as const) {
    it(`${path.basename(shell)}: the user's prompt and rc, each command with its status and folder`, async () => {
      await useShell(envId, shell);
      const id = await startShell(envId);
      const work = path.join(home, 'work');

      const echo = await run(envId, id, 'echo "var=$MY_RC_VAR"', 1);
      expect(echo).toMatchObject({ line: 'echo "var=$MY_RC_VAR"', cwd: work, exitCode: 0 });
      expect(outputOfCommand(id, 0)).toBe(`var=${variable}\n`);
      expect(await run(envId, id, 'false', 2)).toMatchObject({ line: 'false', exitCode: 1 });
      await run(envId, id, "cd 'sub dir'", 3);
      const pwd = await run(envId, id, "pwd; sh -c 'exit 7'", 4);
      expect(pwd).toMatchObject({ cwd: path.join(work, 'sub dir'), exitCode: 7 });
      expect(outputOfCommand(id, 3)).toBe(`${path.join(work, 'sub dir')}\n`);
      expect(pwd.endedAt! - pwd.startedAt).toBeGreaterThanOrEqual(0);

      // The user's own prompt sits between the prompt's two marks, once per prompt.
      const text = outputOf(h, id);
      const prompts = [...text.matchAll(new RegExp(`${ESC}\\]133;A${BEL}(.*?)${ESC}\\]133;B${BEL}`, 'gs'))];
      expect(prompts.length).toBe(5);
      for (const [, between] of prompts) expect(plain(between!)).toContain(prompt);
      expect(text.split(`${ESC}]133;C`).length - 1).toBe(4);
      await h.invoke('processes.signal', { envId, processId: id, signal: 'kill' });
    });
  }

  it('leaves a shell the user integrated alone, and the setting turns it off', async () => {
    await useShell(envId, '/usr/bin/bash', integratedHome);
    const own = await startShell(envId);
    await h.invoke('processes.write', { envId, processId: own, data: 'echo one\r' });
    await waitFor(() => outputOf(h, own).split(`${ESC}]133;A`).length - 1 >= 2, 'the second prompt');
    const text = outputOf(h, own);
    // Only the user's marks: one A per prompt, and none of Tether's command marks.
    expect(text).not.toContain(`${ESC}]133;C`);
    expect(plain(text)).toContain('own-marks> ');
    expect(text.split(`${ESC}]133;A`).length - 1).toBe(2);

    await h.invoke('settings.update', { shellIntegration: false });
    try {
      await useShell(envId, '/usr/bin/bash');
      const plainShell = await h.invoke('processes.start', { envId, tty: true });
      await h.invoke('processes.write', {
        envId,
        processId: plainShell.processId,
        data: 'echo "var=$MY_RC_VAR"\r',
      });
      await waitFor(() => outputOf(h, plainShell.processId).includes('var=from-bashrc'), 'the shell ran');
      expect(outputOf(h, plainShell.processId)).not.toContain(']133;');
    } finally {
      await h.invoke('settings.update', { shellIntegration: true });
    }
  });

  it('keeps every mark once and in place through a cut in the middle of a command', async () => {
    await useShell(envId, '/usr/bin/bash');
    const id = await startShell(envId);
    await h.invoke('processes.write', {
      envId,
      processId: id,
      // The read waits out a slow reconnect on a loaded machine (a short timeout ended the command
      // before the line typed after the cut arrived).
      data: 'echo before; read -t 60 line; echo "after $line"\r',
    });
    await waitFor(() => plain(outputOf(h, id)).includes('before\r\n'), 'the command started');
    remote.proxy.cutAll();
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
      'reconnected',
    );
    await h.invoke('processes.write', { envId, processId: id, data: 'cut\r' });
    await waitFor(() => commandsOf(id)[0]?.endedAt != null, 'the command ended');
    expect(commandsOf(id)).toMatchObject([
      { line: 'echo before; read -t 60 line; echo "after $line"', exitCode: 0 },
    ]);
    expect(outputOfCommand(id, 0)).toBe('before\ncut\nafter cut\n');
    const text = outputOf(h, id);
    expect(text.split(`${ESC}]133;C`).length - 1).toBe(1);
    expect(text.split(`${ESC}]133;D`).length - 1).toBe(1);
  });

  it('keeps the history through an app restart, and goes on recording after it', async () => {
    await useShell(envId, '/usr/bin/bash');
    const id = await startShell(envId);
    await run(envId, id, 'echo first', 1);
    await h.close({ keepDataDir: true });
    h = await createHarness({
      dataDir: h.dataDir,
      backoff: { rampMs: [0, 50, 100], steadyMs: 200, jitter: 0 },
    });
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).every(
          (e) => e.settings.kind !== 'ws' || e.link.kind === 'connected',
        ),
      'both servers connected again',
    );
    const restored = (await h.invoke('processes.list', { envId })).find((p) => p.processId === id);
    expect(restored?.commands).toMatchObject([{ line: 'echo first', exitCode: 0 }]);
    await h.invoke('processes.write', { envId, processId: id, data: 'echo second; false\r' });
    await waitFor(() => commandsOf(id)[1]?.endedAt != null, 'the second command ended');
    expect(commandsOf(id)).toMatchObject([
      { line: 'echo first', exitCode: 0 },
      { line: 'echo second; false', exitCode: 1 },
    ]);
  });

  it("works against codex's server: the marks are in the shell's output", async () => {
    await useShell(codexEnvId, '/usr/bin/zsh');
    const id = await startShell(codexEnvId);
    expect(await run(codexEnvId, id, 'echo "var=$MY_RC_VAR"; false', 1)).toMatchObject({
      cwd: path.join(home, 'work'),
      exitCode: 1,
    });
    expect(outputOfCommand(id, 0)).toBe('var=from-zshrc\n');
  });
});

/**
 * The lines `text` (without escapes) leaves on screen: a carriage return goes back to the line's
 * start and what follows overwrites it (zsh's mark of a partial line is overwritten so), and
 * trailing blanks go.
 */
function screenText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const cells: string[] = [];
      let column = 0;
      for (const char of line) {
        if (char === '\r') column = 0;
        else cells[column++] = char;
      }
      return cells.join('').trimEnd();
    })
    .join('\n');
}

/** Terminal output without its escapes. */
function plain(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b[=>()][0-9A-Za-z]?/g, '')
  );
}
