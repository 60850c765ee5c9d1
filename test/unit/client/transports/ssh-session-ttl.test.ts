// The advertised default: an SSH environment whose session lifetime the user never set keeps a
// dropped session for 3 hours, from the CLI's settings through the bridge's command line to the
// options of a daemon the bridge starts (and of one started with no --session-ttl-ms at all).
import { describe, expect, it } from 'vitest';
import { sshKind } from '../../../../electron/client/transports/ssh/ssh-kind';
import { sshSessionTtlMs } from '../../../../electron/client/transports/ssh/ssh-transport';
import { bridgeCommand } from '../../../../electron/client/remote-host/host-setup';
import type { HostShell } from '../../../../electron/client/remote-host/host-shell';
import { DAEMON_DEFAULTS } from '../../../../electron/server/daemon/daemon';
import { parseServerOptions } from '../../../../electron/server/server-options';

const THREE_HOURS_MS = 3 * 60 * 60 * 1000;

const shell: HostShell = {
  hostName: 'lab',
  commandArgv: (script) => ['ssh', 'lab', script],
  channelFailureExit: 255,
};

describe('the default SSH session lifetime', () => {
  it('is 3 hours from the settings to the bridge that starts the daemon', () => {
    const { settings } = sshKind.cli!.fromOptions('lab', {});
    const spec = sshKind.toSpec(settings, {});
    if (spec.kind !== 'ssh') throw new Error('not an ssh spec');
    expect(spec.sessionTtlMs).toBeUndefined();
    expect(sshSessionTtlMs(spec)).toBe(THREE_HOURS_MS);
    const { argv } = bridgeCommand(
      shell,
      { nodePath: '/n/node', serverPath: '/s/server.mjs' },
      sshSessionTtlMs(spec),
      false,
    );
    expect(argv.at(-1)).toMatch(new RegExp(`bridge --preamble \\S+ --session-ttl-ms ${THREE_HOURS_MS}`));
  });

  it('is what a daemon holds a session for, whether the bridge passes it or not', () => {
    const passed = parseServerOptions(
      { listen: 'unix:/tmp/x/d.sock', sessionTtlMs: String(THREE_HOURS_MS) },
      DAEMON_DEFAULTS,
    );
    expect(passed.sessionTtlMs).toBe(THREE_HOURS_MS);
    expect(parseServerOptions({ listen: 'unix:/tmp/x/d.sock' }, DAEMON_DEFAULTS).sessionTtlMs).toBe(
      THREE_HOURS_MS,
    );
  });

  it('is kept as set when the user chose another one', () => {
    const { settings } = sshKind.cli!.fromOptions('lab', { sessionTtl: '600' });
    const spec = sshKind.toSpec(settings, {});
    if (spec.kind !== 'ssh') throw new Error('not an ssh spec');
    expect(sshSessionTtlMs(spec)).toBe(600_000);
  });
});
