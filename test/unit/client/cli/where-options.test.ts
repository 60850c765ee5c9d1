import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import {
  transportFrom,
  withKindOptions,
  withWhereOptions,
} from '../../../../electron/client/cli/where-options';
import { ClientError } from '../../../../electron/client/client-error';

/** Parses `args` as `tether run` would and returns the spec they say. */
function specOf(args: string[]) {
  const command = withWhereOptions(new Command('run').exitOverride()).argument('[argv...]');
  command.parse(args, { from: 'user' });
  return transportFrom(command.opts());
}

function failureOf(args: string[]): string {
  try {
    specOf(args);
  } catch (error) {
    expect(error).toBeInstanceOf(ClientError);
    return (error as ClientError).message;
  }
  throw new Error(`no failure for ${args.join(' ')}`);
}

describe('where options, built from the environment kinds', () => {
  it('--stdio runs its shell command under sh -c, quotes and all', () => {
    for (const command of [
      `node server.mjs --listen stdio`,
      `echo 'it''s' "a \\"b\\"" | cat`,
      `a\\b $HOME`,
    ]) {
      expect(specOf(['--stdio', command])).toEqual({ kind: 'stdio', command: ['/bin/sh', '-c', command] });
    }
  });

  it('--server with a token file and a pinned certificate', () => {
    expect(specOf(['--server', 'wss://h:1', '--token-file', '/t', '--tls-fingerprint', 'AB'])).toEqual({
      kind: 'ws',
      url: 'wss://h:1',
      tokenFile: '/t',
      tlsFingerprint: 'AB',
    });
    expect(failureOf(['--server', 'http://h:1'])).toBe(
      '--server expects a ws:// or wss:// URL, got "http://h:1".',
    );
  });

  it('--ssh with its options, the config file first', () => {
    expect(
      specOf(['--ssh', 'me@h', '-p', '2222', '-o', 'A=1', '-o', 'B=2', '-F', '/cfg', '--session-ttl', '60']),
    ).toEqual({
      kind: 'ssh',
      destination: 'me@h',
      port: 2222,
      sshOptions: ['-F', '/cfg', '-o', 'A=1', '-o', 'B=2'],
      sessionTtlMs: 60_000,
    });
    expect(failureOf(['--ssh', 'h', '-p', '0'])).toBe('--port expects a TCP port, got "0".');
    expect(failureOf(['--ssh', 'h', '--session-ttl', 'x'])).toBe(
      '--session-ttl expects a positive number of seconds.',
    );
  });

  it('--container [ENGINE:]NAME, on an SSH host with --ssh, and --exec PREFIX', () => {
    expect(
      specOf(['--container', 'docker:web', '--engine-path', '/opt/docker', '--remote-node', '/n']),
    ).toEqual({
      kind: 'container',
      engine: 'docker',
      enginePath: '/opt/docker',
      container: 'web',
      remoteNodePath: '/n',
    });
    expect(specOf(['--container', 'podman:db', '--ssh', 'me@h', '-p', '2222', '-o', 'A=1'])).toEqual({
      kind: 'container',
      engine: 'podman',
      container: 'db',
      host: { destination: 'me@h', port: 2222, sshOptions: ['-o', 'A=1'] },
    });
    expect(specOf(['--exec', "kubectl exec -i 'my pod' --", '--session-ttl', '90'])).toEqual({
      kind: 'exec',
      prefix: ['kubectl', 'exec', '-i', 'my pod', '--'],
      sessionTtlMs: 90_000,
    });
    expect(failureOf(['--container', 'lxd:c'])).toMatch(/"lxd" is not an engine/);
    expect(failureOf(['--ssh', 'h', '--engine-path', '/x'])).toBe('--engine-path goes with --container.');
    expect(failureOf(['--exec', 'x', '--container', 'c'])).toMatch(/^Give one of/);
  });

  it('says which one to give', () => {
    expect(failureOf(['--server', 'ws://h:1', '--ssh', 'h'])).toBe(
      'Give one of --server, --ssh, --stdio, --container or --exec.',
    );
    expect(failureOf([])).toBe(
      'Say where to run: --server ws://HOST:PORT, --ssh HOST, --stdio "COMMAND", --container NAME or --exec "PREFIX".',
    );
    expect(failureOf(['--stdio', 'x', '--tls-fingerprint', 'AB'])).toBe(
      '--tls-fingerprint needs a wss:// --server URL.',
    );
  });

  it('a subcommand naming its kind gets only that kind’s flags', () => {
    const command = withKindOptions(new Command('ssh').exitOverride(), 'ssh');
    expect(command.options.map((o) => o.long)).toEqual([
      '--ssh-option',
      '--ssh-config',
      '--port',
      '--remote-node',
      '--session-ttl',
    ]);
  });
});
