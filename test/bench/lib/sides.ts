// A "side" of a comparison: the Tether client (RemoteExecServerClient) connected to one server
// implementation over one transport, with the server's pid for CPU and memory readings. Also the
// common "run a process through a side until closed" used by several cases.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecServerClientApi, ProcessHandle, TransportSpec } from '../../../electron/client/api';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import {
  serverCommand,
  startServer,
  type ServerImpl,
  type ServerTransport,
} from '../../support/exec-servers';
import { PTY_SIZE } from './direct';
import { childPids } from './proc-tree';
import { elapsedMs } from './stats';

/** The bench's processes run here (any existing directory would do). */
export const PROCESS_CWD = os.tmpdir();

export interface Side {
  impl: ServerImpl;
  transport: ServerTransport;
  /** How the server was started, for the report. */
  commandLine: string;
  client: ExecServerClientApi;
  serverPid: number;
  stop(): Promise<void>;
}

export function createClient(transport: TransportSpec): RemoteExecServerClient {
  return new RemoteExecServerClient({ transport, clientName: 'tether-bench' });
}

/** Starts a server of `impl` and connects the Tether client to it over `transport`. */
export async function openSide(impl: ServerImpl, transport: ServerTransport): Promise<Side> {
  const { command, args } = serverCommand(impl);
  if (transport === 'ws') {
    const server = await startServer(impl, 'ws');
    const client = createClient(server.transportSpec());
    try {
      await client.connect();
    } catch (error) {
      await server.stop();
      throw error;
    }
    return {
      impl,
      transport,
      commandLine: [
        command,
        ...args,
        '--listen',
        'ws://127.0.0.1:0',
        ...(server.token === undefined
          ? []
          : ['--ws-auth', 'capability-token', '--ws-token-file', 'TOKEN_FILE']),
      ].join(' '),
      client,
      serverPid: server.child.pid!,
      stop: async () => {
        await client.close();
        await server.stop();
      },
    };
  }
  // Over stdio the client spawns the server itself; its pid is found among our children.
  const home = mkdtempSync(path.join(os.tmpdir(), `tether-bench-${impl}-`));
  const argv = [command, ...args, '--listen', 'stdio'];
  const before = new Set(childPids(process.pid, 'exec-server'));
  const client = createClient({
    kind: 'stdio',
    command: argv,
    cwd: home,
    env: { CODEX_HOME: home, RUST_LOG: 'warn' },
  });
  await client.connect();
  const serverPid = childPids(process.pid, 'exec-server').find((pid) => !before.has(pid));
  if (serverPid === undefined) throw new Error(`could not find the pid of the ${impl} stdio server`);
  return {
    impl,
    transport,
    commandLine: argv.join(' '),
    client,
    serverPid,
    stop: async () => {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface RunSpec {
  argv: string[];
  env: Record<string, string>;
  tty: boolean;
}

/** Resolves with the output bytes once `handle` delivered its closed event (rejects on failure). */
export function collectUntilClosed(
  handle: ProcessHandle,
  onOutput?: (data: Uint8Array) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    handle.subscribe((event) => {
      if (event.kind === 'output') {
        bytes += event.data.length;
        onOutput?.(event.data);
        handle.acknowledge(bytes);
      } else if (event.kind === 'closed') resolve(bytes);
      else if (event.kind === 'failed') reject(new Error(`process failed: ${event.message}`));
      else if (event.kind === 'gap') reject(new Error(`output lost: seqs ${event.fromSeq}..${event.toSeq}`));
    });
  });
}

/** Starts argv through the side and reads all its output; ms from start call to closed. */
export async function runToClose(side: Side, spec: RunSpec): Promise<{ bytes: number; ms: number }> {
  const start = process.hrtime.bigint();
  const handle = await side.client.startProcess({
    argv: spec.argv,
    cwd: PROCESS_CWD,
    env: spec.env,
    tty: spec.tty,
    ...(spec.tty ? { size: PTY_SIZE } : {}),
  });
  try {
    const bytes = await collectUntilClosed(handle);
    return { bytes, ms: elapsedMs(start) };
  } finally {
    handle.dispose();
  }
}
