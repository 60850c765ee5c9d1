// `tether ps` and `tether attach` against a `tether run` as the other client: listed with its
// client name, attached from its first output, input forwarded, and attach ends with the
// process's exit code; against codex's exec-server both say the feature is not available there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { tetherCli, type TetherCli } from '../../support/tether-cli';
import { waitFor } from '../../support/wait';

function tether(args: string[]): TetherCli {
  return tetherCli(args, 45_000);
}

let tetherServer: StartedServer;
let codexServer: StartedServer;
beforeAll(async () => {
  [tetherServer, codexServer] = await Promise.all([startServer('tether', 'ws'), startServer('codex', 'ws')]);
});
afterAll(async () => {
  await Promise.all([tetherServer?.stop(), codexServer?.stop()]);
});

describe('tether ps and attach', () => {
  it('lists a tether run, attaches from its first output, forwards input and exits with its code', async () => {
    const where = ['--server', tetherServer.url!, '--token-file', tetherServer.tokenFile!];
    const run = tether([
      'run',
      ...where,
      '--',
      'sh',
      '-c',
      'echo run-started; read answer; echo "run got $answer"; exit 7',
    ]);
    await waitFor(() => run.stdout().includes('run-started'), 'the run to start');
    const ps = tether(['ps', ...where]);
    expect(await ps.exited).toBe(0);
    const lines = ps.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    const [id, client, state, age, command] = lines[0]!.split('\t');
    expect([client, state, command]).toEqual([
      'tether',
      'running',
      'sh -c echo run-started; read answer; echo "run got $answer"; exit 7',
    ]);
    expect(age).toMatch(/^\d+s$/);

    const attach = tether(['attach', ...where, id!]);
    await waitFor(() => attach.stdout().includes('run-started'), 'the retained first line');
    attach.write('forty-two\n');
    expect(await attach.exited).toBe(7);
    expect(attach.stdout()).toContain('run got forty-two');
    expect(await run.exited).toBe(7);
  });

  it('says it is not available on a codex exec-server', async () => {
    for (const command of [['ps'], ['attach', 'abcdef12/1']]) {
      const cli = tether([...command, '--server', codexServer.url!]);
      expect(await cli.exited).toBe(255);
      expect(cli.stderr()).toMatch(/Not available on this server/);
      expect(cli.stdout()).toBe('');
    }
  });
});
