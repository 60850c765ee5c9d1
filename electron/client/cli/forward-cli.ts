// `tether forward`: like `ssh -L`, local ports on loopback piped to TCP ports on an environment's
// host through `tetherStreams` (one code path for every kind, SSH included: the daemon dials), or
// plain HTTP through http/request against a codex server (forwarding/http-forward.ts).
// The first line of stdout is the local address of the first forward (one line per forward), so
// a script can read it; the forwards ride through drops until SIGINT or SIGTERM.
import type { Command } from 'commander';
import { errorMessage } from '../../../shared/error-message';
import { escapeForTerminal } from '../../../shared/terminal-text';
import { ClientError } from '../client-error';
import { describeTarget, PortForward } from '../forwarding/port-forward';
import type { StreamTarget } from '../forwarding/stream-mux';
import { RemoteExecServerClient } from '../link/remote-client';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';
import { describeState, RUN_FAILURE_EXIT_CODE } from './remote-run';
import { transportFrom, withWhereOptions, type WhereOptions } from './where-options';

interface ForwardOptions extends WhereOptions {
  verbose?: boolean;
}

/** One `[LOCAL:]HOST:PORT` argument; HOST may be a bracketed IPv6 literal. */
export interface ForwardSpec {
  localPort?: number;
  target: StreamTarget;
}

function port(text: string, what: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > 65535) {
    throw new ClientError('invalidArgument', `${what} must be a port number (${min}–65535), got "${text}".`);
  }
  return value;
}

export function parseForwardSpec(text: string): ForwardSpec {
  const match = /^(?:(\d+):)?(\[[^\]]+\]|[^:[\]]+):(\d+)$/.exec(text);
  if (!match) {
    throw new ClientError(
      'invalidArgument',
      `A forward is [LOCAL:]HOST:PORT (as ssh -L), such as 5173:localhost:5173; got "${text}".`,
    );
  }
  const [, local, host, remote] = match;
  return {
    ...(local !== undefined ? { localPort: port(local, 'LOCAL', 0) } : {}),
    target: { host: host!.replace(/^\[(.*)\]$/, '$1'), port: port(remote!, 'PORT', 1) },
  };
}

function say(message: string): void {
  process.stderr.write(`tether: ${escapeForTerminal(message, { lineBreaks: true })}\n`);
}

/** Connects, binds every forward, prints their addresses, and serves until a signal. */
export async function runForward(specs: ForwardSpec[], options: ForwardOptions): Promise<number> {
  let client: RemoteExecServerClient | null = null;
  const forwards: PortForward[] = [];
  try {
    client = new RemoteExecServerClient({
      transport: transportFrom(options),
      log: options.verbose ? say : undefined,
      ssh: terminalSshHooks(Boolean(options.verbose)),
    });
    const connected = client;
    client.onStateChange((state) => {
      if (options.verbose) {
        const text = describeState(state);
        if (text) say(text);
      }
      // Streams need no session of their own: a session the server forgot is simply replaced.
      if (state.kind === 'failed' && state.code === 'unknownSession') connected.reconnectNow();
    });
    await client.connect();
    // Neither streams nor http/request is refused here, before a port is bound.
    if ((await client.forwardingMode()) === 'http') {
      say(
        'This server has no TCP streams (a codex exec-server): plain HTTP is forwarded through its ' +
          'http/request; WebSockets and other protocols are not.',
      );
    }
    for (const spec of specs) {
      const forward = await PortForward.start(client, {
        target: spec.target,
        ...(spec.localPort !== undefined ? { localPort: spec.localPort } : {}),
        onConnectionError: (message) => say(message),
      });
      forwards.push(forward);
      const [address] = forward.addresses;
      process.stdout.write(`${address}\n`);
      if (spec.localPort === undefined && forward.remapped) {
        say(
          `${describeTarget(spec.target)} is forwarded from local port ${forward.localPort} (${spec.target.port} was taken or below 1024).`,
        );
      }
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return 0;
  } catch (error) {
    say(errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  } finally {
    await Promise.all(forwards.map((forward) => forward.stop()));
    await client?.close({ endSession: true });
  }
}

export function registerForwardCommand(program: Command): void {
  withWhereOptions(
    program
      .command('forward')
      .description(
        'Forward local ports to TCP ports on an environment’s host (loopback only), as ssh -L, riding through drops.',
      ),
  )
    .option('--verbose', 'report connection changes on stderr')
    .argument(
      '<forward...>',
      '[LOCAL:]HOST:PORT: listen on 127.0.0.1:LOCAL and [::1]:LOCAL (0: any free port; default: PORT when free)',
    )
    .action(async (specs: string[], options: ForwardOptions) => {
      let parsed: ForwardSpec[];
      try {
        parsed = specs.map(parseForwardSpec);
      } catch (error) {
        say(errorMessage(error));
        process.exit(RUN_FAILURE_EXIT_CODE);
      }
      const code = await runForward(parsed, options);
      process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
    });
}
