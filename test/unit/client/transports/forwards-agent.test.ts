// Whether Tether forwards the agent follows the user's own ssh config and options, as `ssh -G`
// resolves them: ForwardAgent yes or a socket path, -A, -o ForwardAgent=yes; nothing otherwise.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forwardsAgent } from '../../../../electron/client/transports/ssh/ssh-master';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-forward-agent-'));
const config = path.join(dir, 'ssh_config');
writeFileSync(
  config,
  ['Host yes-box', '  ForwardAgent yes', 'Host path-box', `  ForwardAgent ${dir}/agent.sock`, ''].join('\n'),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const target = (destination: string, ...options: string[]) => ({
  destination,
  sshOptions: ['-F', config, ...options],
});

describe('forwardsAgent', () => {
  it("follows the user's ssh config for the host", async () => {
    expect(await forwardsAgent(target('yes-box'))).toBe(true);
    expect(await forwardsAgent(target('path-box'))).toBe(true);
    expect(await forwardsAgent(target('other-box'))).toBe(false);
  });

  it("honours the environment's own ssh options", async () => {
    expect(await forwardsAgent(target('other-box', '-A'))).toBe(true);
    expect(await forwardsAgent(target('other-box', '-o', 'ForwardAgent=yes'))).toBe(true);
    expect(await forwardsAgent(target('yes-box', '-o', 'ForwardAgent=no'))).toBe(false);
  });
});
