// What ssh asks during a connect goes through askpass to the hooks: an unknown host key (accepted,
// rejected, cancelled; asked even when the user's config says not to), a changed host key (refused by ssh, no question), a key passphrase
// and a password (answered, cancelled: one question, no loop), and no hooks at all (a clear error).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isClientError } from '../../../electron/client/client-error';
import { SshError } from '../../../electron/client/transports/ssh/ssh-error';
import { SshTestRig } from '../../support/sshd';
import { recordingHooks, sshClient } from './ssh-helpers';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

/** The error `connect()` fails with. */
async function connectError(client: ReturnType<typeof sshClient>): Promise<SshError> {
  try {
    await client.connect();
  } catch (error) {
    if (error instanceof SshError) return error;
    throw error;
  } finally {
    await client.close();
  }
  throw new Error('connect() succeeded');
}

describe('SSH prompts', () => {
  it('asks about an unknown host key with its fingerprint and connects when accepted', async () => {
    const host = await rig.startHost({ alias: 'unknown-yes' });
    const hooks = recordingHooks((prompt) => (prompt.kind === 'hostKey' ? 'yes' : null));
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
    } finally {
      await client.close();
    }
    expect(hooks.prompts).toHaveLength(1);
    const [prompt] = hooks.prompts;
    expect(prompt?.kind).toBe('hostKey');
    expect(prompt?.secret).toBe(false);
    expect(prompt?.destination).toBe('unknown-yes');
    const key = Buffer.from(readFileSync(`${host.hostKey}.pub`, 'utf8').split(' ')[1] ?? '', 'base64');
    const fingerprint = createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
    expect(prompt?.text).toContain(`SHA256:${fingerprint}`);
    // ssh itself recorded the accepted key.
    expect(readFileSync(rig.knownHosts, 'utf8')).toContain(`[127.0.0.1]:${host.clientPort}`);
  });

  // ssh's own default is `ask`, so only a config that says otherwise shows that Tether insists on it.
  for (const setting of ['no', 'accept-new']) {
    it(`still asks about an unknown host key, once, when the ssh config says StrictHostKeyChecking ${setting}`, async () => {
      const host = await rig.startHost({
        alias: `strict-${setting}`,
        clientLines: [`StrictHostKeyChecking ${setting}`],
      });
      const hooks = recordingHooks((prompt) => (prompt.kind === 'hostKey' ? 'yes' : null));
      const client = sshClient(rig, host, hooks);
      try {
        await client.connect();
      } finally {
        await client.close();
      }
      expect(hooks.prompts.map((p) => p.kind)).toEqual(['hostKey']);
    });
  }

  it('refuses to connect when the unknown host key is rejected', async () => {
    const host = await rig.startHost({ alias: 'unknown-no' });
    const hooks = recordingHooks(() => 'no');
    const error = await connectError(sshClient(rig, host, hooks));
    expect(error.code).toBe('auth');
    expect(error.stage).toBe('connecting');
    expect(error.message).toMatch(/host key of unknown-no was not accepted/);
    expect(hooks.prompts).toHaveLength(1);
  });

  it('says "cancelled" when the host-key question is cancelled', async () => {
    const host = await rig.startHost({ alias: 'unknown-cancel' });
    const hooks = recordingHooks(() => null);
    const error = await connectError(sshClient(rig, host, hooks));
    expect(error.code).toBe('cancelled');
    expect(hooks.prompts).toHaveLength(1);
  });

  it("refuses a changed host key with ssh's warning, without asking", async () => {
    const first = await rig.startHost({ alias: 'changed' });
    // known_hosts holds a different key for this host and port: the "host" was replaced.
    const impostorKey = (await rig.startHost({ alias: 'impostor-key-source' })).hostKey;
    const pub = readFileSync(`${impostorKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    writeFileSync(
      rig.knownHosts,
      `${readFileSync(rig.knownHosts, 'utf8')}[127.0.0.1]:${first.clientPort} ${pub}\n`,
    );
    const hooks = recordingHooks(() => 'yes');
    const error = await connectError(sshClient(rig, first, hooks));
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(/host key of changed has changed/);
    expect(error.message).toContain('REMOTE HOST IDENTIFICATION HAS CHANGED');
    expect(hooks.prompts).toEqual([]);
  });

  it('asks for a key passphrase once and signs in with it', async () => {
    const host = await rig.startHost({ alias: 'passphrase-ok', authorizedKey: rig.passphraseKey });
    rig.trustHost(host);
    const hooks = recordingHooks((prompt) => (prompt.kind === 'passphrase' ? SshTestRig.PASSPHRASE : null));
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
    } finally {
      await client.close();
    }
    expect(hooks.prompts.map((p) => [p.kind, p.secret])).toEqual([['passphrase', true]]);
    expect(hooks.prompts[0]?.text).toContain(rig.passphraseKey);
  });

  it('stops at a cancelled passphrase: one question, then "cancelled"', async () => {
    const host = await rig.startHost({ alias: 'passphrase-cancel', authorizedKey: rig.passphraseKey });
    rig.trustHost(host);
    const hooks = recordingHooks(() => null);
    const error = await connectError(sshClient(rig, host, hooks));
    expect(error.code).toBe('cancelled');
    expect(error.message).toMatch(/cancelled/);
    expect(hooks.prompts).toHaveLength(1);
  });

  it('asks for a password once and signs in with it', async () => {
    const host = await rig.startHost({ alias: 'password-ok', password: 'open sesame' });
    rig.trustHost(host);
    const hooks = recordingHooks((prompt) => (prompt.kind === 'password' ? 'open sesame' : null));
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
    } finally {
      await client.close();
    }
    expect(hooks.prompts.map((p) => [p.kind, p.secret])).toEqual([['password', true]]);
  });

  it('stops at a cancelled password: one question, not one per ssh retry', async () => {
    const host = await rig.startHost({ alias: 'password-cancel', password: 'open sesame' });
    rig.trustHost(host);
    const hooks = recordingHooks(() => null);
    const error = await connectError(sshClient(rig, host, hooks));
    expect(error.code).toBe('cancelled');
    expect(hooks.prompts).toHaveLength(1);
  });

  it('fails clearly when a prompt is needed and no hooks were given', async () => {
    const host = await rig.startHost({ alias: 'no-hooks', authorizedKey: rig.passphraseKey });
    rig.trustHost(host);
    const error = await connectError(sshClient(rig, host, undefined));
    expect(isClientError(error, 'auth')).toBe(true);
    expect(error.message).toMatch(/nothing here can answer prompts/);
  });
});
