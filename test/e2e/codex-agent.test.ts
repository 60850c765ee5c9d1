// The real `codex exec` 0.171.0 as a coding agent on Tether's server (driven by a fake model of
// ours, test/support/codex-agent.ts): its long-running tool command is listed by `tether ps`
// with codex's client name, followed by `tether attach` from its first output and live, driven
// with input; a wrong token sees nothing. In Chromium the Processes panel lists it under
// *Started by other clients*, a pane watches it read-only, takes it over and keeps it. One codex
// run serves every test of the file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { startCodexAgent, type CodexAgent } from '../support/codex-agent';
import { startServer, type StartedServer } from '../support/exec-servers';
import { tetherCli, type TetherCli } from '../support/tether-cli';
import { waitFor } from '../support/wait';
import { addEnvironment } from './environment-ui';
import { saveScreenshot, reportOnFailure } from './screens';
import { focusTerminal } from './terminal-text';
import { startWebApp } from './web-app';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

/** What codex's agent runs: a first line, then an answer per input line, until stopped. */
const AGENT_COMMAND = 'echo agent-started; while read line; do echo "agent got $line"; done';

function tether(args: string[]): TetherCli {
  return tetherCli(args);
}

let server: StartedServer;
let agent: CodexAgent;
let where: string[];
/** The `tether ps` line of codex's process. */
let agentLine: string;

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  where = ['--server', server.url!, '--token-file', server.tokenFile!];
  agent = await startCodexAgent(server, AGENT_COMMAND, { tty: true });
  agentLine = await waitFor(
    async () => {
      if (agent.child.exitCode !== null) throw new Error(`codex exec exited early:\n${agent.output()}`);
      const ps = tether(['ps', ...where]);
      await ps.exited;
      return (
        ps
          .stdout()
          .split('\n')
          .find((line) => line.includes('agent-started')) ?? false
      );
    },
    "codex's process in tether ps",
    60_000,
  );
});

afterAll(async () => {
  await agent?.stop();
  await server?.stop();
});

describe('codex exec as the agent, seen from tether ps and attach', () => {
  it("tether ps lists codex's process: id first, codex's client name, running, its command", () => {
    const [id, client, state, age, command] = agentLine.split('\t');
    expect(id).toMatch(/^[0-9a-f]{8}\/\S+$/);
    expect(client).toMatch(/codex/);
    expect(state).toBe('running');
    expect(age).toMatch(/^\d+[smhd]$/);
    expect(command).toContain('while read line');
  });

  it('a wrong token sees nothing', async () => {
    const wrong = path.join(server.home, 'wrong-token');
    writeFileSync(wrong, 'not-the-token\n', { mode: 0o600 });
    const ps = tether(['ps', '--server', server.url!, '--token-file', wrong]);
    expect(await ps.exited).toBe(255);
    expect(ps.stdout()).toBe('');
    expect(ps.stderr()).toMatch(/token|auth/i);
  });

  it('tether attach shows the output from the start, then live, and input reaches the process', async () => {
    const id = agentLine.split('\t')[0]!;
    const attach = tether(['attach', ...where, id]);
    await waitFor(() => attach.stdout().includes('agent-started'), 'the retained first line');
    attach.write('hello-from-attach\n');
    await waitFor(
      () => attach.stdout().includes('agent got hello-from-attach'),
      'the live answer to our input',
    );
    attach.kill();
    await attach.exited;

    const watcher = tether(['attach', '--read-only', ...where, id]);
    await waitFor(() => watcher.stdout().includes('agent got hello-from-attach'), 'the retained answer');
    watcher.write('not-forwarded\n');
    const probe = tether(['attach', ...where, id]);
    await waitFor(() => probe.stdout().includes('agent got hello-from-attach'), 'a second attach');
    probe.write('probe\n');
    await waitFor(() => watcher.stdout().includes('agent got probe'), 'live output at the read-only watcher');
    expect(watcher.stdout()).not.toContain('agent got not-forwarded');
    probe.kill();
    watcher.kill();
    await Promise.all([probe.exited, watcher.exited]);
  });
});

describe("codex exec as the agent, seen in the app's Processes panel", () => {
  it('lists it under Started by other clients; a pane watches it read-only, takes it over and keeps it', async () => {
    const app = await startWebApp();
    const browser = await launchBrowser({ disableWebgl: true });
    const { page } = browser;
    reportOnFailure(page, 'codex-agent', app);
    try {
      await page.goto(app.url);
      await expect.poll(() => page.locator('section.pane .xterm-rows').count(), poll).toBe(1);
      await addEnvironment(page, server.transportSpec(), UI_TIMEOUT_MS);
      await page.getByRole('tab', { name: 'Processes' }).click();
      const others = page.getByRole('region', { name: 'Started by other clients' });
      const row = others.getByRole('row', { name: /codex.*while read line/ });
      await expect.poll(() => row.count(), poll).toBe(1);
      expect(await row.textContent()).toMatch(/running/);
      await saveScreenshot(page, 'codex-agent-processes');
      await row.getByRole('button', { name: /^Watch / }).click();

      const watching = page
        .locator('section.pane')
        .filter({ has: page.locator('.pane-title', { hasText: /^Watching codex/ }) });
      await expect.poll(() => watching.count(), poll).toBe(1);
      expect(await watching.locator('.pane-title').textContent()).toMatch(
        /^Watching codex[\w-]*'s `.*while read line.*`$/,
      );
      // Its output from the start, read-only: typing does not reach it.
      await expect.poll(() => watching.locator('.xterm-rows').textContent(), poll).toContain('agent-started');
      expect(await watching.getByText('read-only', { exact: true }).count()).toBe(1);
      await focusTerminal(page);
      await page.keyboard.type('typed-while-watching');
      await page.keyboard.press('Enter');
      await expect.poll(() => watching.getByRole('alert').textContent(), poll).toMatch(/Read-only/);

      await watching.getByRole('button', { name: 'Take over' }).click();
      await expect
        .poll(() => watching.getByRole('status').first().textContent(), poll)
        .toMatch(/Control is shared with codex/);
      await focusTerminal(page);
      await page.keyboard.type('from-chromium');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => watching.locator('.xterm-rows').textContent(), poll)
        .toContain('agent got from-chromium');
      expect(await watching.locator('.xterm-rows').textContent()).not.toContain(
        'agent got typed-while-watching',
      );
      await saveScreenshot(page, 'codex-agent-taken-over');

      await watching.getByRole('button', { name: 'Keep' }).click();
      await expect.poll(() => watching.getByRole('status').first().textContent(), poll).toMatch(/^Kept/);
      // The process is the app's session's now: tether ps names the app as its client.
      const ps = tether(['ps', ...where]);
      await ps.exited;
      const line = ps
        .stdout()
        .split('\n')
        .find((l) => l.includes('while read line'));
      expect(line?.split('\t')[1]).toBe('tether');
    } finally {
      await browser.close();
      await app.stop();
    }
  });
});
