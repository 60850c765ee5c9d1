// "Test connection": tries an environment's settings step by step (name resolution, TCP connect,
// the TLS certificate of wss://, spawn, handshake, version) with a fresh client that is closed
// afterwards, and says which step failed and why, in words the user can act on.
import { promises as dns } from 'node:dns';
import { constants as fsConstants, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestConnectionResult } from '../../../shared/ipc';
import type { ConnectionState, ExecServerClientApi, TransportSpec } from '../../client/api';
import type { SshHooks } from '../../client/ssh/ssh-hooks';
import { CertificateError, openTrustedTlsSocket, tlsTargetOf } from '../../client/transports/tls-trust';
import { AppError } from '../app-error';
import type { ClientFactory } from './environment-runtime';
import { TEST_CONNECTION_TIMEOUT_MS } from '../limits';
import { errorMessage } from '../../../shared/error-message';

type Stage = TestConnectionResult['stage'];

class StageFailure extends Error {
  constructor(
    readonly stage: Stage,
    message: string,
    readonly certificate?: TestConnectionResult['certificate'],
  ) {
    super(message);
  }
}

export interface TestOptions {
  timeoutMs?: number;
  /** An SSH transport's hooks: its stages and prompts, as on a real connect. */
  ssh?: SshHooks;
  /** Every link state the test client goes through (the SSH progress derives its failure from them). */
  onState?: (state: ConnectionState) => void;
}

export async function testConnection(
  spec: TransportSpec,
  createClient: ClientFactory,
  options: TestOptions = {},
): Promise<TestConnectionResult> {
  const deadline = Date.now() + (options.timeoutMs ?? TEST_CONNECTION_TIMEOUT_MS);
  let client: ExecServerClientApi | null = null;
  try {
    if (spec.kind === 'ws') {
      await probeSocket(spec.url, deadline);
      if (spec.url.startsWith('wss://')) await probeCertificate(spec.url, spec.tlsFingerprint, deadline);
    } else if (spec.kind === 'stdio') {
      await probeCommand(spec.command[0] ?? '');
    }
    client = createClient(spec, options.ssh ? { ssh: options.ssh } : {});
    if (options.onState) client.onStateChange(options.onState);
    await connectOnce(client, deadline);
    const info = client.environmentInfo;
    if (!info) {
      throw new StageFailure(
        'version',
        'The server connected but sent no environment information; it is too old for Tether. Update it.',
      );
    }
    const started = performance.now();
    await withDeadline(
      client.fs.canonicalize('/'),
      deadline,
      'The server did not answer a simple request in time.',
    );
    const rttMs = Math.round(performance.now() - started);
    const version = typeof info.executorVersion === 'string' ? ` (version ${info.executorVersion})` : '';
    return {
      ok: true,
      stage: 'ok',
      message: `Connected to the exec-server${version}.`,
      info: { ...info },
      rttMs,
    };
  } catch (error) {
    const failure = error instanceof StageFailure ? error : classify(error);
    return {
      ok: false,
      stage: failure.stage,
      message: failure.message,
      info: null,
      rttMs: null,
      ...(failure.certificate ? { certificate: failure.certificate } : {}),
    };
  } finally {
    await client?.close().catch(() => undefined);
  }
}

async function probeSocket(rawUrl: string, deadline: number): Promise<void> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AppError('invalidInput', `"${rawUrl}" is not a URL; use the form ws://host:port.`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new AppError('invalidInput', `"${rawUrl}" must start with ws:// or wss://.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'wss:' ? 443 : 80));
  let address = host;
  if (net.isIP(host) === 0) {
    try {
      address = (await withDeadline(dns.lookup(host), deadline, `Looking up ${host} took too long.`)).address;
    } catch (error) {
      if (error instanceof StageFailure) throw error;
      throw new StageFailure(
        'dns',
        `The host name ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}). Check the spelling and your network.`,
      );
    }
  }
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const timer = setTimeout(
      () => {
        socket.destroy();
        reject(
          new StageFailure(
            'timeout',
            `Nothing answered at ${host}:${port} in time; a firewall may be dropping the connection.`,
          ),
        );
      },
      Math.max(1, deadline - Date.now()),
    );
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new StageFailure(
          'refused',
          error.code === 'ECONNREFUSED'
            ? `Connection refused by ${host}:${port}: no exec-server is listening there. Is it running, and is the port right?`
            : `Could not reach ${host}:${port} (${error.code ?? error.message}).`,
        ),
      );
    });
  });
}

/** The TLS handshake and certificate check on their own, so a refusal can carry the fingerprint. */
async function probeCertificate(url: string, pin: string | undefined, deadline: number): Promise<void> {
  try {
    const socket = await openTrustedTlsSocket(tlsTargetOf(url, pin), Math.max(1, deadline - Date.now()));
    socket.destroy();
  } catch (error) {
    if (!(error instanceof CertificateError)) throw error;
    throw new StageFailure('certificate', error.message, {
      problem: error.problem,
      fingerprint: error.fingerprint,
      pinned: error.pinned,
    });
  }
}

async function probeCommand(program: string): Promise<void> {
  if (!program) throw new StageFailure('spawn', 'The command line is empty.');
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      await fs.access(candidate, fsConstants.X_OK);
      return;
    } catch {
      // Not here; try the next PATH entry.
    }
  }
  throw new StageFailure(
    'spawn',
    `The program "${program}" was not found or is not executable (searched PATH). Install it or give its full path.`,
  );
}

/** Resolves once connected; fails on the first failure instead of letting the client retry. */
function connectOnce(client: ExecServerClientApi, deadline: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (error?: unknown): void => {
      clearTimeout(timer);
      stop();
      if (error === undefined) resolve();
      else reject(error);
    };
    const timer = setTimeout(
      () => done(new StageFailure('timeout', 'The exec-server did not complete the handshake in time.')),
      Math.max(1, deadline - Date.now()),
    );
    const stop = client.onStateChange((state) => {
      if (state.kind === 'connected') done();
      else if (state.kind === 'failed') done(classifyText(state.reason, state.code));
      else if (state.kind === 'reconnecting') done(classifyText(state.reason));
    });
    client.connect().then(
      () => done(),
      (error: unknown) => done(classify(error)),
    );
  });
}

function classify(error: unknown): StageFailure {
  if (error instanceof StageFailure) return error;
  if (error instanceof AppError) throw error;
  const code = (error as { code?: unknown }).code;
  return classifyText(errorMessage(error), typeof code === 'string' ? code : undefined);
}

function classifyText(message: string, code?: string): StageFailure {
  if (code === 'auth' || /\b401\b|unauthori[sz]ed|bearer token|forbidden|\b403\b/i.test(message)) {
    // The transport's message may already say both parts; each is said once.
    const said = message.replace(/[.\s]+$/, '');
    const text = /refused the credentials/i.test(said) ? said : `The server refused the credentials: ${said}`;
    return new StageFailure(
      'auth',
      /check the token$/i.test(said) ? `${text}.` : `${text}. Check the token.`,
    );
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return new StageFailure('dns', message);
  if (/ECONNREFUSED/.test(message)) return new StageFailure('refused', message);
  if (/ENOENT|EACCES|spawn/i.test(message)) return new StageFailure('spawn', message);
  if (code === 'timeout' || /timed? ?out/i.test(message)) return new StageFailure('timeout', message);
  return new StageFailure('handshake', `The exec-server handshake failed: ${message}`);
}

function withDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StageFailure('timeout', message)),
      Math.max(1, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
