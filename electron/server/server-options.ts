// Validates the exec-server's command-line options into a ServerOptions value, with codex's
// startup messages where the two CLIs overlap, and Tether's own rule that a WebSocket listener
// authenticates unless `--ws-auth none` says otherwise (loopback only). A unix socket in a private
// directory (the SSH daemon's) needs no token.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  DEFAULT_EXITED_PROCESS_TTL_MS,
  DEFAULT_MAX_OPEN_FILES,
  DEFAULT_MAX_PROCESSES_PER_SESSION,
  DEFAULT_MAX_QUEUED_REQUESTS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_RETAINED_OUTPUT_BYTES,
  DEFAULT_RETAINED_OUTPUT_CHUNKS,
  DEFAULT_SESSION_TTL_MS,
  DEFAULT_WRITE_ID_WINDOW,
  MAX_IN_FLIGHT_REQUESTS,
} from './limits';
import { LOG_LEVELS, type LogLevel } from './logger';
import type { JwtConfig } from './listeners/jwt';
import type { SessionConfig } from './processes/session';
import { errorMessage } from '../../shared/error-message';

export class StartupError extends Error {
  readonly code = 'EXEC_SERVER_STARTUP';
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

export type ListenTarget =
  | { kind: 'stdio' }
  | { kind: 'ws'; host: string; port: number; secure: boolean }
  /** `unix:PATH`: a socket whose directory must be private to us (electron/server/daemon/private-dir.ts). */
  | { kind: 'unix'; path: string };

/** The certificate chain and private key a `wss://` listener serves (PEM, as read at startup). */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

export type AuthConfig =
  /** Only by an explicit `--ws-auth none` (or for stdio, which has no network listener). */
  | { kind: 'none' }
  | { kind: 'capabilityToken'; tokenSha256: Buffer }
  | ({ kind: 'signedBearerToken' } & JwtConfig);

/** Shortest HS256 secret accepted, as codex. */
const MIN_JWT_SECRET_BYTES = 32;
const DEFAULT_JWT_CLOCK_SKEW_SECONDS = 30;

export interface ServerOptions extends SessionConfig {
  listen: ListenTarget;
  /** Set exactly when the listener is `wss://`. */
  tls: TlsFiles | null;
  auth: AuthConfig;
  logLevel: LogLevel;
  maxInFlightRequests: number;
  /** Exit after this long with no connection and no session; null: never (the default but for the daemon). */
  idleExitMs: number | null;
  maxQueuedRequests: number;
  maxOpenFiles: number;
  /**
   * What SIGHUP does: end the server like SIGTERM (its terminal or SSH session went away), or
   * nothing, for a daemon that must outlive the SSH connection that started it.
   */
  hangup: 'shutdown' | 'ignore';
}

/** Defaults that differ between `tether exec-server` and the SSH daemon (`server.mjs daemon`). */
export interface ServerDefaults {
  sessionTtlMs: number;
  idleExitMs: number | null;
  hangup: ServerOptions['hangup'];
}

const EXEC_SERVER_DEFAULTS: ServerDefaults = {
  sessionTtlMs: DEFAULT_SESSION_TTL_MS,
  idleExitMs: null,
  hangup: 'shutdown',
};

/** Raw option values as commander hands them over. */
export interface RawServerOptions {
  listen?: string;
  tlsCert?: string;
  tlsKey?: string;
  wsAuth?: string;
  wsTokenFile?: string;
  wsTokenSha256?: string;
  wsSharedSecretFile?: string;
  wsIssuer?: string;
  wsAudience?: string;
  wsMaxClockSkewSeconds?: string;
  sessionTtlMs?: string;
  idleExitMs?: string;
  exitedProcessTtlMs?: string;
  retainedOutputBytes?: string;
  retainedOutputChunks?: string;
  writeIdWindow?: string;
  concurrentRequests?: string;
  maxQueuedRequests?: string;
  maxSessions?: string;
  maxProcessesPerSession?: string;
  maxOpenFiles?: string;
  logLevel?: string;
}

export function parseListen(url: string): ListenTarget {
  if (url === 'stdio' || url === 'stdio://') return { kind: 'stdio' };
  if (url.startsWith('unix:')) {
    const socketPath = url.slice('unix:'.length);
    if (!path.isAbsolute(socketPath)) {
      throw new StartupError(`invalid --listen URL \`${url}\`; expected \`unix:/ABSOLUTE/PATH\``);
    }
    return { kind: 'unix', path: path.normalize(socketPath) };
  }
  if (!url.startsWith('ws://') && !url.startsWith('wss://')) {
    throw new StartupError(
      `unsupported --listen URL \`${url}\`; expected \`ws://IP:PORT\`, \`wss://IP:PORT\`, \`unix:PATH\` or \`stdio\``,
    );
  }
  const match = /^(wss?):\/\/(\[[^\]]+\]|[^:/[\]]+):(\d{1,5})\/?$/.exec(url);
  const host = match?.[2]?.replace(/^\[|\]$/g, '');
  const port = Number(match?.[3]);
  if (!host || !net.isIP(host) || !(port >= 0 && port <= 65535)) {
    throw new StartupError(
      `invalid websocket --listen URL \`${url}\`; expected \`ws://IP:PORT\` or \`wss://IP:PORT\``,
    );
  }
  return { kind: 'ws', host, port, secure: match?.[1] === 'wss' };
}

export function isLoopback(host: string): boolean {
  if (net.isIPv4(host)) return host.startsWith('127.');
  const lower = host.toLowerCase();
  return lower === '::1' || lower.startsWith('::ffff:127.');
}

/** Shown when a WebSocket listener was asked for without saying how clients authenticate. */
function missingAuthMessage(listenUrl: string): string {
  return [
    `refusing to listen on ${listenUrl} without authentication: anyone who can reach the port could run programs as you.`,
    'Create a token file readable only by you and pass it:',
    '  umask 077; head -c 32 /dev/urandom | base64 > ~/.tether-token',
    `  tether exec-server --listen ${listenUrl} --ws-auth capability-token --ws-token-file ~/.tether-token`,
    'Clients then send the token as `Authorization: Bearer <token>` (`tether run --token-file ~/.tether-token`).',
    'For a trial on loopback only, `--ws-auth none` serves without authentication.',
  ].join('\n');
}

function parseAuth(raw: RawServerOptions, listen: ListenTarget, listenUrl: string): AuthConfig {
  const jwtFlags = [raw.wsSharedSecretFile, raw.wsIssuer, raw.wsAudience, raw.wsMaxClockSkewSeconds];
  const anyFlag = [raw.wsTokenFile, raw.wsTokenSha256, ...jwtFlags].some((v) => v !== undefined);
  if (raw.wsAuth === undefined || raw.wsAuth === 'none') {
    if (anyFlag) {
      throw new StartupError(
        'websocket auth flags require `--ws-auth capability-token` or `--ws-auth signed-bearer-token`',
      );
    }
    // stdio has no listener to protect: whoever can write to its stdin already runs as us. A unix
    // socket is the other exception: the listener refuses to bind unless the socket's directory is
    // ours with mode 0700 (private-dir.ts), so only we (and root) can connect; the kernel is the check.
    if (raw.wsAuth === undefined && listen.kind === 'ws') {
      throw new StartupError(missingAuthMessage(listenUrl));
    }
    if (raw.wsAuth === 'none' && listen.kind === 'ws' && !isLoopback(listen.host)) {
      throw new StartupError(
        `refusing \`--ws-auth none\` on non-loopback address ${listen.host}; ` +
          'pass `--ws-auth capability-token --ws-token-file PATH` (or listen on 127.0.0.1)',
      );
    }
    return { kind: 'none' };
  }
  if (listen.kind === 'unix') {
    throw new StartupError('a `unix:` listener is authenticated by its private directory; drop `--ws-auth`');
  }
  if (raw.wsAuth === 'signed-bearer-token') return parseJwtAuth(raw);
  if (raw.wsAuth !== 'capability-token') {
    throw new StartupError(
      `unknown --ws-auth mode \`${raw.wsAuth}\`; expected \`capability-token\`, \`signed-bearer-token\` or \`none\``,
    );
  }
  if (jwtFlags.some((v) => v !== undefined)) {
    throw new StartupError('signed bearer token flags cannot be used with `--ws-auth capability-token`');
  }
  if (raw.wsTokenFile !== undefined && raw.wsTokenSha256 !== undefined) {
    throw new StartupError('`--ws-token-file` and `--ws-token-sha256` are mutually exclusive');
  }
  if (raw.wsTokenFile !== undefined) {
    let token: string;
    try {
      token = readFileSync(raw.wsTokenFile, 'utf8').trim();
    } catch (error) {
      throw new StartupError(`cannot read --ws-token-file ${raw.wsTokenFile}: ${errorMessage(error)}`);
    }
    if (token === '') throw new StartupError(`websocket token file ${raw.wsTokenFile} is empty`);
    return { kind: 'capabilityToken', tokenSha256: createHash('sha256').update(token).digest() };
  }
  if (raw.wsTokenSha256 !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(raw.wsTokenSha256)) {
      throw new StartupError('`--ws-token-sha256` must be 64 hexadecimal characters (a SHA-256 digest)');
    }
    return { kind: 'capabilityToken', tokenSha256: Buffer.from(raw.wsTokenSha256, 'hex') };
  }
  throw new StartupError(
    '`--ws-token-file` or `--ws-token-sha256` is required when `--ws-auth capability-token` is set',
  );
}

function parseJwtAuth(raw: RawServerOptions): AuthConfig {
  if (raw.wsTokenFile !== undefined || raw.wsTokenSha256 !== undefined) {
    throw new StartupError('capability token flags cannot be used with `--ws-auth signed-bearer-token`');
  }
  if (raw.wsSharedSecretFile === undefined) {
    throw new StartupError(
      '`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set',
    );
  }
  let secret: Buffer;
  try {
    secret = Buffer.from(readFileSync(raw.wsSharedSecretFile, 'utf8').trim(), 'utf8');
  } catch (error) {
    throw new StartupError(
      `cannot read --ws-shared-secret-file ${raw.wsSharedSecretFile}: ${errorMessage(error)}`,
    );
  }
  if (secret.length < MIN_JWT_SECRET_BYTES) {
    throw new StartupError(
      `signed websocket bearer secret ${raw.wsSharedSecretFile} must be at least ${MIN_JWT_SECRET_BYTES} bytes`,
    );
  }
  let maxClockSkewSeconds = DEFAULT_JWT_CLOCK_SKEW_SECONDS;
  if (raw.wsMaxClockSkewSeconds !== undefined) {
    maxClockSkewSeconds = Number(raw.wsMaxClockSkewSeconds);
    if (!Number.isSafeInteger(maxClockSkewSeconds) || maxClockSkewSeconds < 0) {
      throw new StartupError('--ws-max-clock-skew-seconds must be a non-negative integer');
    }
  }
  return {
    kind: 'signedBearerToken',
    secret,
    issuer: raw.wsIssuer,
    audience: raw.wsAudience,
    maxClockSkewSeconds,
  };
}

function readTlsFile(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new StartupError(`cannot read ${flag} ${file}: ${errorMessage(error)}`);
  }
}

/** The certificate and key of a `wss://` listener; both flags or neither, and only with wss. */
function parseTls(listen: ListenTarget, raw: RawServerOptions): TlsFiles | null {
  const secure = listen.kind === 'ws' && listen.secure;
  if (!secure) {
    if (raw.tlsCert !== undefined || raw.tlsKey !== undefined) {
      throw new StartupError('`--tls-cert` and `--tls-key` need a `wss://IP:PORT` --listen URL');
    }
    return null;
  }
  if (raw.tlsCert === undefined || raw.tlsKey === undefined) {
    throw new StartupError('a `wss://` listener needs both `--tls-cert FILE` and `--tls-key FILE` (PEM)');
  }
  return { cert: readTlsFile('--tls-cert', raw.tlsCert), key: readTlsFile('--tls-key', raw.tlsKey) };
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) {
    throw new StartupError(`--${name} must be a positive integer, got \`${value}\``);
  }
  return parsed;
}

export function parseServerOptions(
  raw: RawServerOptions,
  defaults: ServerDefaults = EXEC_SERVER_DEFAULTS,
): ServerOptions {
  const listenUrl = raw.listen ?? 'ws://127.0.0.1:0';
  const listen = parseListen(listenUrl);
  const tls = parseTls(listen, raw);
  const auth = parseAuth(raw, listen, listenUrl);
  if (raw.idleExitMs !== undefined && listen.kind !== 'unix') {
    throw new StartupError('`--idle-exit-ms` needs a `unix:PATH` --listen URL');
  }
  const logLevel = (raw.logLevel ?? 'warn') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new StartupError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    listen,
    tls,
    auth,
    logLevel,
    hangup: defaults.hangup,
    maxInFlightRequests: positiveInt('concurrent-requests', raw.concurrentRequests, MAX_IN_FLIGHT_REQUESTS),
    maxQueuedRequests: positiveInt('max-queued-requests', raw.maxQueuedRequests, DEFAULT_MAX_QUEUED_REQUESTS),
    maxOpenFiles: positiveInt('max-open-files', raw.maxOpenFiles, DEFAULT_MAX_OPEN_FILES),
    maxSessions: positiveInt('max-sessions', raw.maxSessions, DEFAULT_MAX_SESSIONS),
    maxProcessesPerSession: positiveInt(
      'max-processes-per-session',
      raw.maxProcessesPerSession,
      DEFAULT_MAX_PROCESSES_PER_SESSION,
    ),
    sessionTtlMs: positiveInt('session-ttl-ms', raw.sessionTtlMs, defaults.sessionTtlMs),
    idleExitMs:
      raw.idleExitMs === undefined ? defaults.idleExitMs : positiveInt('idle-exit-ms', raw.idleExitMs, 0),
    exitedProcessTtlMs: positiveInt(
      'exited-process-ttl-ms',
      raw.exitedProcessTtlMs,
      DEFAULT_EXITED_PROCESS_TTL_MS,
    ),
    retainedOutputBytes: positiveInt(
      'retained-output-bytes',
      raw.retainedOutputBytes,
      DEFAULT_RETAINED_OUTPUT_BYTES,
    ),
    retainedOutputChunks: positiveInt(
      'retained-output-chunks',
      raw.retainedOutputChunks,
      DEFAULT_RETAINED_OUTPUT_CHUNKS,
    ),
    writeIdWindow: positiveInt('write-id-window', raw.writeIdWindow, DEFAULT_WRITE_ID_WINDOW),
  };
}
