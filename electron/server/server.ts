// Runs the exec-server: builds the shared parts (session registry, environment info, the orphan
// watchdog), starts the chosen listener, and owns shutdown (SIGTERM/SIGINT, SIGHUP unless told to
// ignore it, stdin EOF in stdio mode, idle exit): stop listening, kill every process group of
// every session, drop connections, exit.
import { buildEnvironmentInfo } from './rpc/environment-info';
import type { ConnectionDeps } from './rpc/connection';
import { SHUTDOWN_GRACE_MS } from './limits';
import { IdleExit } from './daemon/idle-exit';
import { createLogger } from './logger';
import { checkNodePtyInternals } from './reader/node-pty-internals';
import { OrphanWatchdog } from './processes/orphan-watchdog';
import type { ServerOptions } from './server-options';
import { SessionRegistry } from './processes/session';
import { startStdioListener } from './listeners/stdio-listener';
import { startUnixListener } from './listeners/unix-listener';
import { startWsListener } from './listeners/ws-listener';

export async function runExecServer(options: ServerOptions): Promise<void> {
  // Before serving anyone: a node-pty other than the pinned one fails here, not at the first pty.
  checkNodePtyInternals();
  const logger = createLogger(options.logLevel);
  let idleExit: IdleExit | null = null;
  // Started first: from the first process on, a SIGKILLed server leaves nothing running.
  const registry = new SessionRegistry(options, new OrphanWatchdog(logger), () => idleExit?.update());
  const deps: ConnectionDeps = {
    registry,
    environmentInfo: buildEnvironmentInfo(process.env, {
      unauthenticatedListener: options.listen.kind === 'ws' && options.auth.kind === 'none',
      sessionTtlMs: options.sessionTtlMs,
    }),
    logger,
    maxInFlightRequests: options.maxInFlightRequests,
    maxQueuedRequests: options.maxQueuedRequests,
    maxOpenFiles: options.maxOpenFiles,
  };
  let stopListening: () => void = () => {};
  let flush: () => Promise<void> = async () => {};
  let shuttingDown = false;

  const shutdown = (exitCode: number, why: string): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info(`shutting down: ${why}`);
    stopListening();
    registry.disposeAll();
    const force = setTimeout(() => process.exit(exitCode), SHUTDOWN_GRACE_MS);
    void flush().finally(() => {
      clearTimeout(force);
      process.exit(exitCode);
    });
  };
  process.on('SIGTERM', () => shutdown(0, 'SIGTERM'));
  process.on('SIGINT', () => shutdown(0, 'SIGINT'));
  // Node's default for SIGHUP is to die on the spot, leaving every process group running.
  process.on('SIGHUP', () => {
    if (options.hangup === 'shutdown') shutdown(0, 'SIGHUP');
  });
  // A client that vanished must not take the server down with EPIPE.
  process.stdout.on('error', () => {});

  if (options.listen.kind === 'stdio') {
    const stdio = startStdioListener(deps, (code) =>
      shutdown(code, code === 0 ? 'stdin closed' : 'protocol violation on stdio'),
    );
    flush = stdio.flush;
    return;
  }
  if (options.listen.kind === 'unix') {
    const listener = await startUnixListener(options.listen.path, deps, () => idleExit?.update());
    stopListening = listener.close;
    if (options.idleExitMs !== null) {
      const idleExitMs = options.idleExitMs;
      idleExit = new IdleExit(
        idleExitMs,
        { connections: listener.connectionCount, sessions: () => registry.size },
        () => shutdown(0, `idle for ${idleExitMs} ms`),
      );
      idleExit.update();
    }
    process.stdout.write(`unix:${options.listen.path}\n`);
    return;
  }
  const listener = await startWsListener(
    options.listen.host,
    options.listen.port,
    options.auth,
    deps,
    options.tls,
  );
  stopListening = listener.close;
  process.stdout.write(`${listener.url}\n`);
  if (options.auth.kind === 'none') warnUnauthenticated(listener.url);
  else logger.info(`listening on ${listener.url} (token auth)`);
}

/** `--ws-auth none` is a choice for trials; it is said on stderr whatever the log level. */
function warnUnauthenticated(url: string): void {
  process.stderr.write(
    `tether exec-server: WARNING: --ws-auth none: ${url} accepts connections without authentication; ` +
      'any local user can run programs as you. Use it for trials only.\n',
  );
}
