// The daemon's stable agent link leads only to the forwarded agent of a live bridge of ours: an
// offer whose bridge died (its socket may still be there) or whose socket is not ours is dropped,
// and with no live offer there is no link, so processes get no SSH_AUTH_SOCK.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentEnv,
  agentLinkPath,
  offerAgent,
  refreshAgentLink,
  withdrawAgent,
} from '../../../../electron/server/daemon/agent-link';

let dir: string;
let servers: net.Server[];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-agent-link-'));
  servers = [];
});
afterEach(() => {
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function listening(name: string): Promise<string> {
  const file = path.join(dir, name);
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return file;
}

/** A pid no process has any more. */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$']);
  return Number(child.stdout.toString().trim());
}

const paths = (): { dir: string; socket: string } => ({ dir, socket: path.join(dir, 'v1-abc.sock') });

describe('agent link', () => {
  it("leads to this bridge's agent while it offers it, and goes when it withdraws", async () => {
    const agent = await listening('agent');
    expect(offerAgent(paths(), { SSH_AUTH_SOCK: agent })).toBe(true);
    expect(readlinkSync(agentLinkPath(paths()))).toBe(`v1-abc.agent-${process.pid}`);
    expect(agentEnv(paths(), { HOME: '/h', SSH_AUTH_SOCK: '/old' })).toEqual({
      HOME: '/h',
      SSH_AUTH_SOCK: agentLinkPath(paths()),
    });
    withdrawAgent(paths());
    expect(existsSync(agentLinkPath(paths()))).toBe(false);
    expect(agentEnv(paths(), { HOME: '/h', SSH_AUTH_SOCK: '/old' })).toEqual({ HOME: '/h' });
  });

  it('drops the offer of a bridge that died, even while its socket is still there', async () => {
    const agent = await listening('agent');
    symlinkSync(agent, path.join(dir, `v1-abc.agent-${deadPid()}`));
    expect(refreshAgentLink(paths())).toBe(false);
    expect(existsSync(agentLinkPath(paths()))).toBe(false);
    expect(agentEnv(paths(), {})).toEqual({});
  });

  it("refuses a socket that is not the user's own", async () => {
    const foreign = await listening('foreign');
    // Tests run as root here: the socket is given to another user.
    chownSync(foreign, 65534, 65534);
    expect(offerAgent(paths(), { SSH_AUTH_SOCK: foreign })).toBe(false);
    expect(existsSync(agentLinkPath(paths()))).toBe(false);
  });
});
