// A fleet of environments in one `tether web` app, for the fleet benchmark case and its bounded
// test: ws environments spread over a few Tether exec-servers and SSH environments over a few real
// sshd hosts, every server behind its own fault proxy (for SSH, between ssh and sshd), each
// environment running one process that prints numbered lines. All proxies are cut at once and
// restored; then every environment's retained output is checked for a complete, in-order,
// exactly-once sequence.
import { readFileSync } from 'node:fs';
import type { EnvironmentView, ProcessEventView } from '../../../shared/ipc';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { SshTestRig } from '../../support/sshd';
import { waitFor } from '../../support/wait';
import { BridgeClient, startWebApp, type WebApp } from './web-app';

/** How often checkAll() reads every process's retained output again while it waits. */
const CHECK_INTERVAL_MS = 500;

export interface FleetOptions {
  /** Tether exec-server processes the ws environments are spread over (one proxy each). */
  wsServers: number;
  wsEnvironments: number;
  /** sshd hosts the SSH environments are spread over (one proxy each). */
  sshHosts: number;
  sshEnvironments: number;
  /** How often each process prints a line. */
  lineIntervalMs: number;
  /** How long connecting every environment and starting its process may take. */
  setupTimeoutMs: number;
  log(line: string): void;
}

export interface FleetEnvironment {
  envId: string;
  name: string;
  kind: 'ws' | 'ssh';
  processId: string;
  /** The proxy in front of this environment's server. */
  proxy: FaultProxy;
}

/** What one environment's retained output says about its sequence of numbered lines. */
export interface SequenceCheck {
  /** Complete lines received. */
  lines: number;
  /** Numbers skipped (never received). */
  lost: number;
  /** Lines whose number was not the next one expected: repeated or out of order. */
  repeated: number;
  /** Gap markers in the event log (output the app knows it lost). */
  gaps: number;
  /** The newest epoch ms printed on any complete line (0 if none). */
  lastPrintedAt: number;
}

/**
 * The printer: line `N EPOCH_MS` every interval, forever, flushed per line; perl, so 100 of them
 * print without forking a `sleep` per line.
 */
export function printerArgv(intervalMs: number): string[] {
  return [
    '/usr/bin/perl',
    '-MTime::HiRes=time,sleep',
    '-e',
    '$| = 1; for (my $n = 1; ; $n++) { printf("%d %.0f\\n", $n, time() * 1000); sleep($ARGV[0] / 1000) }',
    String(intervalMs),
  ];
}

/** Checks that `text` is lines `1 T`, `2 T`, … with nothing missing, repeated or reordered. */
export function checkSequence(text: string, gaps = 0): SequenceCheck {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const result: SequenceCheck = { lines: 0, lost: 0, repeated: 0, gaps, lastPrintedAt: 0 };
  let expected = 1;
  for (const line of complete.split('\n')) {
    if (line === '') continue;
    const [number, printedAt] = line.split(' ').map(Number);
    result.lines += 1;
    // Any line counts for "output arrived after X", in sequence or not: the counts say the rest.
    if (printedAt !== undefined && Number.isFinite(printedAt)) {
      result.lastPrintedAt = Math.max(result.lastPrintedAt, printedAt);
    }
    if (number === undefined || !Number.isInteger(number) || number < expected) {
      result.repeated += 1;
      continue;
    }
    result.lost += number - expected;
    expected = number + 1;
  }
  return result;
}

export class Fleet {
  /** Latest view of each environment, by id, from the bridge's environments.changed events. */
  readonly views = new Map<string, EnvironmentView>();
  private restoredAt: number | null = null;
  /** First moment each environment was connected again after the restore (its link's `since`). */
  readonly resumedAt = new Map<string, number>();

  private constructor(
    readonly web: WebApp,
    readonly bridge: BridgeClient,
    readonly environments: FleetEnvironment[],
    readonly proxies: FaultProxy[],
    /** The ws environments' exec-server processes. */
    readonly serverPids: number[],
    private readonly stopServers: () => Promise<void>,
  ) {}

  static async start(options: FleetOptions): Promise<Fleet> {
    const servers: StartedServer[] = [];
    const proxies: FaultProxy[] = [];
    const rig = options.sshEnvironments > 0 ? new SshTestRig() : null;
    let web: WebApp | null = null;
    let bridge: BridgeClient | null = null;
    const stopServers = async (): Promise<void> => {
      for (const proxy of proxies) await proxy.close();
      for (const server of servers) await server.stop();
      await rig?.close();
    };
    try {
      const wsProxies: FaultProxy[] = [];
      for (let i = 0; i < Math.min(options.wsServers, options.wsEnvironments); i += 1) {
        const server = await startServer('tether', 'ws');
        servers.push(server);
        const proxy = await FaultProxy.forUrl(server.url!);
        proxies.push(proxy);
        wsProxies.push(proxy);
      }
      const sshHosts = [];
      for (let i = 0; rig && i < Math.min(options.sshHosts, options.sshEnvironments); i += 1) {
        const host = await rig.startHost({ alias: `fleet-ssh-${i + 1}`, proxied: true });
        rig.trustHost(host);
        sshHosts.push(host);
        proxies.push(host.proxy!);
      }
      web = await startWebApp(rig ? { sshConfig: readFileSync(rig.configFile, 'utf8') } : {});
      bridge = await BridgeClient.connect(web.url);
      const client = bridge;
      const views = new Map<string, EnvironmentView>();
      client.onEvent((name, payload) => {
        if (name === 'environments.changed') {
          const view = payload as EnvironmentView;
          views.set(view.id, view);
        }
      });
      const planned: Array<Omit<FleetEnvironment, 'processId'>> = [];
      const add = async (
        name: string,
        kind: 'ws' | 'ssh',
        proxy: FaultProxy,
        settings: Record<string, unknown>,
        token?: string,
      ): Promise<void> => {
        const view = await client.invoke<EnvironmentView>('environments.add', {
          name,
          color: '#3366aa',
          settings,
          ...(token !== undefined ? { token } : {}),
        });
        planned.push({ envId: view.id, name, kind, proxy });
      };
      for (let i = 0; i < options.wsEnvironments; i += 1) {
        const index = i % wsProxies.length;
        await add(
          `fleet ws ${i + 1}`,
          'ws',
          wsProxies[index]!,
          { kind: 'ws', url: wsProxies[index]!.url() },
          servers[index]!.token,
        );
      }
      // The first environment of each host installs the server there; the others wait for it, so
      // they find it installed rather than all uploading it at once.
      const connected = (envId: string): boolean => views.get(envId)?.link.kind === 'connected';
      for (let i = 0; i < options.sshEnvironments; i += 1) {
        const host = sshHosts[i % sshHosts.length]!;
        await add(`fleet ssh ${i + 1}`, 'ssh', host.proxy!, { kind: 'ssh', destination: host.alias });
        if (i < sshHosts.length) {
          const { envId } = planned[planned.length - 1]!;
          await waitFor(
            () => connected(envId),
            `${host.alias} installed and connected`,
            options.setupTimeoutMs,
          );
        }
      }
      await waitFor(
        () => planned.every((p) => connected(p.envId)),
        `all ${planned.length} environments connected`,
        options.setupTimeoutMs,
      );
      options.log(`  ${planned.length} environments connected`);
      const environments: FleetEnvironment[] = [];
      for (const plan of planned) {
        const view = await client.invoke<{ processId: string }>('processes.start', {
          envId: plan.envId,
          argv: printerArgv(options.lineIntervalMs),
          tty: false,
        });
        environments.push({ ...plan, processId: view.processId });
      }
      await waitFor(
        () => environments.every((e) => (client.outputBytes.get(`${e.envId}/${e.processId}`) ?? 0) > 0),
        'every process printing',
        options.setupTimeoutMs,
      );
      const fleet = new Fleet(
        web,
        client,
        environments,
        proxies,
        servers.map((server) => server.child.pid!),
        stopServers,
      );
      for (const [id, view] of views) fleet.views.set(id, view);
      client.onEvent((name, payload) => {
        if (name === 'environments.changed') fleet.observe(payload as EnvironmentView);
      });
      return fleet;
    } catch (error) {
      bridge?.close();
      await web?.stop();
      await stopServers();
      throw error;
    }
  }

  /** Cuts every link at once: live connections reset, new ones refused until restore(). */
  cut(): number {
    for (const proxy of this.proxies) proxy.refuseNew(true);
    for (const proxy of this.proxies) proxy.cutAll();
    return Date.now();
  }

  restore(): number {
    this.restoredAt = Date.now();
    this.resumedAt.clear();
    for (const proxy of this.proxies) proxy.restore();
    return this.restoredAt;
  }

  /** Waits until every environment is connected again after restore(). */
  async allResumed(timeoutMs: number): Promise<void> {
    try {
      await waitFor(
        () => this.environments.every((e) => this.resumedAt.has(e.envId)),
        'every resume',
        timeoutMs,
      );
    } catch {
      const behind = this.environments
        .filter((e) => !this.resumedAt.has(e.envId))
        .map((e) => `${e.name} (${this.views.get(e.envId)?.link.kind ?? 'no view'})`);
      throw new Error(
        `${behind.length} environment(s) not resumed within ${timeoutMs} ms: ${behind.join(', ')}`,
      );
    }
  }

  /** The app's retained output of one environment's process, checked as a sequence. */
  async check(environment: FleetEnvironment): Promise<SequenceCheck> {
    const { events } = await this.bridge.invoke<{ events: ProcessEventView[] }>('processes.replay', {
      envId: environment.envId,
      processId: environment.processId,
      afterSeq: 0,
    });
    const text = events
      .flatMap((e) => (e.kind === 'output' ? [Buffer.from(e.data).toString('utf8')] : []))
      .join('');
    return checkSequence(text, events.filter((e) => e.kind === 'gap').length);
  }

  /** Waits until every process's retained output holds a line printed after `since`, then checks all. */
  async checkAll(since: number, timeoutMs: number): Promise<SequenceCheck[]> {
    let checks: SequenceCheck[] = [];
    await waitFor(
      async () => {
        checks = await Promise.all(this.environments.map((e) => this.check(e)));
        return checks.every((c) => c.lastPrintedAt > since);
      },
      "every process's output to reach past the restore",
      timeoutMs,
      CHECK_INTERVAL_MS,
    );
    return checks;
  }

  async stop(): Promise<void> {
    this.bridge.close();
    await this.web.stop();
    await this.stopServers();
  }

  private observe(view: EnvironmentView): void {
    this.views.set(view.id, view);
    if (
      this.restoredAt !== null &&
      view.link.kind === 'connected' &&
      !this.resumedAt.has(view.id) &&
      view.link.since >= this.restoredAt
    ) {
      this.resumedAt.set(view.id, view.link.since);
    }
  }
}
