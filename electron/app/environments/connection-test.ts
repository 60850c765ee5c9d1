// "Test connection": tries an environment's settings step by step (its kind's preflight, e.g. name
// resolution, TCP connect and certificate, or the program to spawn; then handshake and version)
// with a fresh client that is closed afterwards, and says which step failed and why, in words the
// user can act on.
import type { TestConnectionResult } from '../../../shared/ipc';
import type { ConnectionState, ExecServerClientApi, TransportSpec } from '../../client/api';
import type { SshHooks } from '../../client/transports/ssh/ssh-hooks';
import { AppError } from '../app-error';
import { StageFailure, withDeadline } from './test-stage';
import type { ClientFactory } from './environment-runtime';
import { TEST_CONNECTION_TIMEOUT_MS } from '../limits';
import { errorMessage } from '../../../shared/error-message';

export interface TestOptions {
  timeoutMs?: number;
  /** The kind's checks before the handshake (name, socket, certificate, program). */
  preflight?: (spec: TransportSpec, deadline: number) => Promise<void>;
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
    await options.preflight?.(spec, deadline);
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
