// Runs a list of scenarios against codex's and Tether's exec-servers over each transport and
// compares the normalised transcripts. WebSocket servers are shared by a file's scenarios (each
// scenario opens its own connections); a stdio server carries one connection, so each run starts one.
import { appendFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startServer,
  type ServerImpl,
  type ServerTransport,
  type StartedServer,
} from '../support/exec-servers';
import { RpcPeer } from '../support/rpc-peer';
import { Normaliser, type Scenario, type ScenarioContext, type TranscriptEntry } from './scenario-kit';

/** Per-scenario bound unless the scenario sets its own. */
const SCENARIO_TIMEOUT_MS = 45_000;
const IMPLS: ServerImpl[] = ['codex', 'tether'];
/** When set to a file path, every run appends its transcript there (one JSON line) for diagnosis. */
const DUMP_FILE = process.env.TETHER_CONFORMANCE_DUMP;

export interface SuiteOptions {
  name: string;
  scenarios: Scenario[];
  /** Start every server with capability-token auth (ws only). */
  auth?: boolean;
}

interface ServerSetup {
  extraArgs: string[];
  token?: string;
  /** Holds the token file; removed after the suite. */
  dir?: string;
}

export function defineConformanceSuite(options: SuiteOptions): void {
  const setup = makeServerSetup(options.auth === true);
  for (const transport of ['ws', 'stdio'] as const) {
    const scenarios = options.scenarios.filter((s) => (s.transports ?? ['ws', 'stdio']).includes(transport));
    if (scenarios.length === 0) continue;
    describe.concurrent(`${options.name} over ${transport}`, () => {
      const shared = new Map<ServerImpl, Promise<StartedServer>>();
      beforeAll(() => {
        if (transport !== 'ws') return;
        for (const impl of IMPLS) {
          const started = startServer(impl, 'ws', { extraArgs: setup.extraArgs });
          started.catch(() => undefined);
          shared.set(impl, started);
        }
      });
      afterAll(async () => {
        await Promise.all(
          [...shared.values()].map((s) =>
            s.then(
              (server) => server.stop(),
              () => undefined,
            ),
          ),
        );
        if (setup.dir) rmSync(setup.dir, { recursive: true, force: true });
      });
      for (const scenario of scenarios) {
        let resolveReference: (t: TranscriptEntry[]) => void = () => undefined;
        let rejectReference: (e: unknown) => void = () => undefined;
        const reference = new Promise<TranscriptEntry[]>((resolve, reject) => {
          resolveReference = resolve;
          rejectReference = reject;
        });
        reference.catch(() => undefined);
        const timeout = scenario.timeoutMs ?? SCENARIO_TIMEOUT_MS;
        it(`${scenario.name} [codex]`, { timeout }, async () => {
          try {
            resolveReference(await runScenario(scenario, 'codex', transport, setup, shared.get('codex')));
          } catch (error) {
            rejectReference(error);
            throw error;
          }
        });
        it(`${scenario.name} [tether]`, { timeout }, async () => {
          const transcript = await runScenario(scenario, 'tether', transport, setup, shared.get('tether'));
          if (scenario.differs) return;
          const expected = await reference.catch((error: unknown) => {
            throw new Error(
              `the codex reference run failed, so there is nothing to compare with: ${String(error)}`,
            );
          });
          expect(transcript, 'Tether transcript must equal codex transcript').toEqual(expected);
        });
      }
    });
  }
}

function makeServerSetup(auth: boolean): ServerSetup {
  if (!auth) return { extraArgs: [] };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-conformance-auth-'));
  const token = `conformance-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const file = path.join(dir, 'token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { dir, token, extraArgs: ['--ws-auth', 'capability-token', '--ws-token-file', file] };
}

async function runScenario(
  scenario: Scenario,
  impl: ServerImpl,
  transport: ServerTransport,
  setup: ServerSetup,
  shared: Promise<StartedServer> | undefined,
): Promise<TranscriptEntry[]> {
  const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), `tether-conf-${impl}-`)));
  const server = shared ? await shared : await startServer(impl, 'stdio', { extraArgs: setup.extraArgs });
  const peers: RpcPeer[] = [];
  const normaliser = new Normaliser(
    [
      [scratch, '<scratch>'],
      [server.home, '<home>'],
    ].sort((a, b) => b[0]!.length - a[0]!.length) as Array<[string, string]>,
  );
  const transcript: TranscriptEntry[] = [];
  const connect: ScenarioContext['connect'] = async (options) => {
    if (transport === 'stdio') {
      if (peers.length > 0) throw new Error('a stdio server carries exactly one connection');
      const peer = RpcPeer.overStdio(server.child);
      peers.push(peer);
      return peer;
    }
    // Codex has no auth; Tether's server requires its token, so a connection that does not choose
    // its own headers presents it, and the two servers see the same frames.
    const peer = await RpcPeer.connectWs(server.url as string, {
      ...options,
      headers: options?.headers ?? server.authHeaders(),
    });
    peers.push(peer);
    return peer;
  };
  const ctx: ScenarioContext = {
    impl,
    transport,
    server: () => server,
    connect,
    session: async () => {
      const peer = await connect(setup.token ? { headers: { Authorization: `Bearer ${setup.token}` } } : {});
      const { sessionId, environmentInfo } = await peer.handshake();
      return { peer, sessionId, environmentInfo: (environmentInfo ?? {}) as Record<string, unknown> };
    },
    scratch,
    uri: (relative = '') => pathToFileURL(path.join(scratch, relative)).href,
    record: (label, value) => transcript.push([label, normaliser.normalise(value)]),
    token: setup.token,
  };
  try {
    await scenario.run(ctx);
    return transcript;
  } finally {
    dumpTranscript(scenario, impl, transport, transcript);
    if (shared) {
      await Promise.all(peers.map((p) => p.close(2_000).catch(() => undefined)));
    } else {
      await server.stop();
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

function dumpTranscript(
  scenario: Scenario,
  impl: ServerImpl,
  transport: ServerTransport,
  transcript: TranscriptEntry[],
) {
  if (!DUMP_FILE) return;
  appendFileSync(DUMP_FILE, `${JSON.stringify({ scenario: scenario.name, impl, transport, transcript })}\n`);
}
