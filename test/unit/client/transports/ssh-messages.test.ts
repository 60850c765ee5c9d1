// What an SSH failure says to the user: ssh's own words without its version banner, the host with
// the port the user gave, a dropped link in plain words, and settings by the label the form shows.
import { describe, expect, it } from 'vitest';
import { hostLabel, masterFailure } from '../../../../electron/client/transports/ssh/ssh-master';
import { bridgeExitError } from '../../../../electron/client/transports/ssh/ssh-transport';
import { REMOTE_NODE_PATH_HINT } from '../../../../electron/client/remote-host/remote-probe';
import { BRIDGE_EXIT_NO_DAEMON } from '../../../../shared/remote-bundle';

describe('SSH failure messages', () => {
  it('quote what ssh said about the sign-in, not its version banner, and name the port', () => {
    const stderr =
      'OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026\n' +
      'debug1: Reading configuration data /tmp/x/config\n' +
      'tether@127.0.0.1: Permission denied (publickey).\n';
    const error = masterFailure(stderr, false, hostLabel({ destination: 'lab', port: 2222 }));
    expect(error.stage).toBe('authenticating');
    expect(error.message).toBe(
      'Could not sign in to lab (port 2222).\nssh said:\ntether@127.0.0.1: Permission denied (publickey).',
    );
    expect(hostLabel({ destination: 'lab' })).toBe('lab');
  });

  it('say that the SSH connection dropped instead of quoting an exit code', () => {
    expect(bridgeExitError(255, false, 'lab')?.message).toBe(
      'The SSH connection to lab dropped (the network, or the host closed it).',
    );
    expect(bridgeExitError(255, true, 'lab')?.code).toBe('disconnected');
    expect(bridgeExitError(BRIDGE_EXIT_NO_DAEMON, true, 'lab')?.code).toBe('unknownSession');
    expect(bridgeExitError(1, false, 'lab')).toBeNull();
  });

  it('name the Node setting by the label the environment form shows', () => {
    expect(REMOTE_NODE_PATH_HINT).toContain('"Node on the host"');
    expect(REMOTE_NODE_PATH_HINT).not.toContain('remoteNodePath');
  });
});
