// `server.mjs bridge`: what the client runs over SSH or an exec session. It relays stdin to the
// daemon's unix socket and the socket to stdout, byte for byte and with backpressure both ways (or,
// when its stdin and stdout are pipes, has the daemon serve them itself: pipe-adoption.ts, and only
// waits), and starts the daemon
// (detached, under a lock so concurrent bridges start one, without this SSH session's agent, display
// or connection variables) when none answers, unless --no-start. With --forward-agent it offers its
// session's agent to the daemon's processes while it relays (agent-link.ts). With --locate it only
// says where the daemon's socket is, for a client that forwards to it directly (host-direct.ts).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, renameSync, statSync } from 'node:fs';
import os from 'node:os';
import type net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BRIDGE_EXIT_NO_DAEMON, remoteBundleId } from '../../../shared/remote-bundle';
import { offerAgent, withdrawAgent } from './agent-link';
import { bundleEntry, readBundleIdentity } from './bundle-identity';
import { daemonPaths, ensureRunDir, type DaemonPaths } from './daemon-paths';
import { DAEMON_LOG_ROTATE_BYTES, DAEMON_START_POLL_MS, DAEMON_START_TIMEOUT_MS } from '../limits';
import { claimPidFile, releasePidFile } from './pid-lock';
import { StartupError } from '../server-options';
import { connectUnix } from './socket-probe';
import {
  ADOPT_REQUEST_MAX_BYTES,
  ADOPTED_LOG_LINE,
  ADOPTED_REPLY,
  DECLINED_REPLY,
  encodeAdoptRequest,
  ownAdoptRequest,
  type AdoptRequest,
} from './pipe-adoption';
import { errorMessage } from '../../../shared/error-message';

export interface BridgeOptions {
  /** False with --no-start: a missing daemon means the session the client held is gone. */
  start: boolean;
  /** --forward-agent: the user's ssh forwards the agent here; offer it to the daemon's processes. */
  forwardAgent?: boolean;
  /** Passed to a daemon this bridge starts; a running daemon keeps its own. */
  sessionTtlMs?: string;
  idleExitMs?: string;
  /**
   * --preamble: the line printed on stdout before anything else. Printed by this node rather than
   * by the shell before it, so a node that cannot run on this host prints none, and the client
   * reads that as a host to examine rather than as a broken link.
   */
  preamble?: string;
  /**
   * --locate: relay nothing; once the daemon answers (started if need be, unless --no-start), print
   * `{"daemonSocket":"<path>"}` after the preamble and exit 0. A client that can reach the socket
   * itself (OpenSSH's streamlocal forwarding) learns where it is this way.
   */
  locate?: boolean;
}

/** Exit code and message when no daemon answers and the bridge may not start one. */
export class NoDaemonError extends Error {
  readonly code = 'TETHER_NO_DAEMON';
  readonly exitCode = BRIDGE_EXIT_NO_DAEMON;
  constructor() {
    super('no Tether daemon is running on this host');
    this.name = 'NoDaemonError';
  }
}

/** Lines of the daemon's log quoted when it failed to start, so the client can show why. */
const LOG_TAIL_LINES = 20;

function logTail(log: string): string {
  try {
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    return lines.slice(-LOG_TAIL_LINES).join('\n');
  } catch {
    return '';
  }
}

/** Each daemon appends to the log; past a bound, the old one is kept once as `.log.old`. */
function rotateLog(log: string): void {
  try {
    if (statSync(log).size > DAEMON_LOG_ROTATE_BYTES) renameSync(log, `${log}.old`);
  } catch {
    // No log yet.
  }
}

/**
 * Variables of this SSH session that must not outlive it in the daemon (and so in every process
 * it starts later, for hours): the agent and X11 display it forwarded, which sshd removes when
 * the session ends (and another user may then recreate), and facts about this one connection.
 * The agent comes back through agent-link.ts, for as long as a session forwards one.
 */
export const SESSION_ONLY_ENV_VARS: readonly string[] = [
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'DISPLAY',
  'XAUTHORITY',
  'SSH_CONNECTION',
  'SSH_CLIENT',
  'SSH_TTY',
  'SSH_ORIGINAL_COMMAND',
  'SSH_USER_AUTH',
  'KRB5CCNAME',
];

/** This session's environment without what belongs to the session alone. */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const result = { ...env };
  for (const name of SESSION_ONLY_ENV_VARS) delete result[name];
  return result;
}

function startDaemon(paths: DaemonPaths, options: BridgeOptions): { exited: () => boolean } {
  rotateLog(paths.log);
  const args = [bundleEntry(), 'daemon', '--listen', `unix:${paths.socket}`];
  if (options.sessionTtlMs !== undefined) args.push('--session-ttl-ms', options.sessionTtlMs);
  if (options.idleExitMs !== undefined) args.push('--idle-exit-ms', options.idleExitMs);
  const log = openSync(paths.log, 'a', 0o600);
  let exited = false;
  try {
    // detached: a new session without a terminal, so neither the SSH session's end nor its
    // SIGHUP reaches the daemon; its output goes to the log beside the socket.
    // In the home directory, not wherever this SSH session happened to start.
    const child = spawn(process.execPath, args, {
      cwd: os.homedir(),
      env: daemonEnv(process.env),
      detached: true,
      stdio: ['ignore', log, log],
    });
    child.once('exit', () => (exited = true));
    child.once('error', () => (exited = true));
    child.unref();
  } finally {
    closeSync(log);
  }
  return { exited: () => exited };
}

/**
 * The daemon's socket, connected. Bridges arriving together take turns on the start-up lock; the
 * first starts the daemon and the rest find its socket answering.
 */
async function reachDaemon(paths: DaemonPaths, options: BridgeOptions): Promise<net.Socket> {
  const first = await connectUnix(paths.socket);
  if (first) return first;
  if (!options.start) throw new NoDaemonError();
  const deadline = Date.now() + DAEMON_START_TIMEOUT_MS;
  let started: { exited: () => boolean } | null = null;
  let holdingLock = false;
  try {
    while (Date.now() < deadline) {
      const socket = await connectUnix(paths.socket);
      if (socket) return socket;
      if (started?.exited()) {
        throw new StartupError(`the daemon exited before it listened (${paths.log}):\n${logTail(paths.log)}`);
      }
      if (!holdingLock && claimPidFile(paths.lock).claimed) {
        holdingLock = true;
        // Checked again under the lock: the previous holder may just have started it.
        const already = await connectUnix(paths.socket);
        if (already) return already;
        started = startDaemon(paths, options);
      }
      await sleep(DAEMON_START_POLL_MS);
    }
  } finally {
    if (holdingLock) releasePidFile(paths.lock);
  }
  throw new StartupError(
    `no daemon answered on ${paths.socket} within ${DAEMON_START_TIMEOUT_MS} ms; see ${paths.log}`,
  );
}

/** Relays until either side ends; resolves the exit code (0 on a clean end). */
function relay(socket: net.Socket): Promise<number> {
  return new Promise((resolve) => {
    let failure: string | null = null;
    // pipe() pauses the source while the destination is full: nothing is buffered without bound.
    process.stdin.pipe(socket);
    socket.pipe(process.stdout, { end: false });
    socket.on('error', (error) => (failure = `lost the daemon's socket: ${error.message}`));
    // The client went away: there is nobody left to relay to.
    process.stdout.on('error', () => socket.destroy());
    socket.once('close', () => {
      if (failure) process.stderr.write(`tether bridge: ${failure}\n`);
      process.stdout.write('', () => resolve(failure ? 1 : 0));
    });
  });
}

/**
 * Asks the daemon to serve the link on this bridge's own pipes (pipe-adoption.ts): true once it
 * did; false when it declined, with the socket closed and the reason on stderr for the client's log.
 */
function askAdoption(socket: net.Socket, request: AdoptRequest): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = '';
    const onData = (chunk: Buffer): void => {
      reply += chunk.toString('utf8');
      const newline = reply.indexOf('\n');
      if (newline < 0 && reply.length < ADOPT_REQUEST_MAX_BYTES) return;
      socket.off('data', onData);
      const line = reply.slice(0, newline < 0 ? undefined : newline);
      if (line === ADOPTED_REPLY) {
        resolve(true);
        return;
      }
      const reason = line.startsWith(`${DECLINED_REPLY} `) ? line.slice(DECLINED_REPLY.length + 1) : line;
      process.stderr.write(
        `tether bridge: relaying, the daemon did not adopt this session's pipes: ${reason}\n`,
      );
      socket.destroy();
      resolve(false);
    };
    socket.on('data', onData);
    // The daemon gone before it answered: relaying will tell the client the same.
    socket.once('close', () => resolve(false));
    socket.on('error', () => undefined);
    socket.write(encodeAdoptRequest(request));
  });
}

/**
 * The adopted link's lifetime: the daemon closes the socket when the link ends there (or it went
 * away), and this bridge's exit then ends the exec session. Exit code 0, as after a relay's end.
 */
function whileAdopted(socket: net.Socket): Promise<number> {
  // The daemon writes nothing more here: reading only watches for the close.
  socket.resume();
  return new Promise((resolve) => {
    if (socket.destroyed) resolve(0);
    else socket.once('close', () => resolve(0));
  });
}

export async function runBridge(options: BridgeOptions): Promise<number> {
  // Written before the daemon may be asked to take stdout over, so the preamble stays first.
  if (options.preamble !== undefined) await writeStdout(`${options.preamble}\n`);
  const identity = readBundleIdentity();
  const paths = daemonPaths(ensureRunDir(), remoteBundleId(identity));
  const socket = await reachDaemon(paths, options);
  if (options.locate) {
    socket.destroy();
    await writeStdout(`${JSON.stringify({ daemonSocket: paths.socket })}\n`);
    return 0;
  }
  if (!options.forwardAgent) {
    const request = ownAdoptRequest();
    if (request === null) return relay(socket);
    if (await askAdoption(socket, request)) {
      process.stderr.write(`tether bridge: ${ADOPTED_LOG_LINE}\n`);
      return whileAdopted(socket);
    }
    // Declined (said why on stderr): relay on a link of our own, as a bridge without pipes does.
    return relay(await reachDaemon(paths, { ...options, start: false }));
  }
  // The agent is a convenience: a failure to offer it must not cost the connection.
  tryAgentLink(() => offerAgent(paths));
  // sshd ends a dropped session's command with SIGHUP (or SIGTERM): the offer goes with it.
  // Then the signal is raised again, so the bridge ends by it as it would without an offer.
  const withdrawAndExit = (signal: NodeJS.Signals): void => {
    tryAgentLink(() => withdrawAgent(paths));
    process.kill(process.pid, signal);
  };
  for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const) process.once(signal, withdrawAndExit);
  try {
    return await relay(socket);
  } finally {
    tryAgentLink(() => withdrawAgent(paths));
  }
}

function writeStdout(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

function tryAgentLink(step: () => unknown): void {
  try {
    step();
  } catch (error) {
    process.stderr.write(`tether bridge: the agent link: ${errorMessage(error)}\n`);
  }
}
