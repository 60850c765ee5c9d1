// The real `codex exec` (the pinned 0.171.0) as a coding agent whose environment is a Tether server:
// a CODEX_HOME of its own (config.toml pointing its model provider at a fake Responses API on
// 127.0.0.1, environments.toml naming the server with its token), one prompt, and the fake model's
// tool call, which runs `command` on the server through codex's exec-server client. The model
// holds the turn open until `finish()`, so the process stays codex's for as long as a test needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverCommand, type StartedServer } from './exec-servers';
import { startFakeResponsesApi, type FakeResponsesApi } from './fake-responses-api';

/** codex's environment id for the Tether server; the tool call names it (codex runs locally otherwise). */
const ENVIRONMENT_ID = 'tether';
const API_KEY_VARIABLE = 'TETHER_FAKE_MODEL_KEY';

export interface CodexAgent {
  child: ChildProcess;
  model: FakeResponsesApi;
  output: () => string;
  /** The model ends the turn; codex exits. */
  finish: () => void;
  stop: () => Promise<void>;
}

export async function startCodexAgent(
  server: StartedServer,
  command: string,
  options: { tty: boolean },
): Promise<CodexAgent> {
  if (!server.url || !server.token) throw new Error('the codex agent needs a Tether ws server with a token');
  const model = await startFakeResponsesApi({
    cmd: command,
    environmentId: ENVIRONMENT_ID,
    tty: options.tty,
  });
  const home = mkdtempSync(path.join(os.tmpdir(), 'tether-codex-agent-'));
  writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model = "fake-model"',
      'model_provider = "fake"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${model.baseUrl}"`,
      'wire_api = "responses"',
      `env_key = "${API_KEY_VARIABLE}"`,
      'request_max_retries = 0',
      'stream_max_retries = 0',
      'stream_idle_timeout_ms = 600000',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(home, 'environments.toml'),
    `[[environments]]\nid = "${ENVIRONMENT_ID}"\nurl = "${server.url}"\nauth_bearer_token = "${server.token}"\n`,
    { mode: 0o600 },
  );
  const child = spawn(
    serverCommand('codex').command,
    ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never', 'Run the test suite.'],
    {
      cwd: home,
      env: { ...process.env, CODEX_HOME: home, [API_KEY_VARIABLE]: 'not-a-real-key', RUST_LOG: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => (output = (output + d).slice(-20_000)));
  child.stderr?.on('data', (d: string) => (output = (output + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    model,
    output: () => output,
    finish: () => model.finish(),
    stop: async () => {
      model.finish();
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      await model.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
