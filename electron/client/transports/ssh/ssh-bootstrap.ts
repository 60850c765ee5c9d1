// The SSH bootstrap of one environment: owns the master connection and its askpass channel, looks
// at the host, installs the server bundle (and a Node runtime when the host has no usable node)
// once per version, and hands out the command that bridges stdio to the host's daemon. It owns no
// session state: the client above resumes sessions, the daemon on the host keeps them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { REMOTE_BUNDLE_ENTRY, REMOTE_BUNDLE_MANIFEST } from '../../../../shared/remote-bundle';
import { AskpassServer } from './askpass';
import {
  findNodeRuntime,
  loadServerBundle,
  type ArtifactLocations,
  type ServerBundle,
} from '../../remote-host/local-artifacts';
import type { AskpassRequest } from './prompt-kind';
import { PrivateDir } from './private-dir';
import { installArtifact, type Artifact } from '../../remote-host/remote-install';
import {
  hostRequirementsError,
  nodeChoice,
  probeHost,
  REMOTE_NODE_PATH_HINT,
  remoteRuntimeDir,
  remoteServerDir,
  type HostFacts,
} from '../../remote-host/remote-probe';
import { newMarker, remoteSh, runOnHost } from '../../remote-host/remote-shell';
import { SshError } from './ssh-error';
import type { SshHooks } from './ssh-hooks';
import { SshMaster, type SshTarget } from './ssh-master';

export interface SshBootstrapOptions {
  target: SshTarget;
  /** A node of the user's own on the host; skips the host's PATH and the runtime upload. */
  remoteNodePath?: string;
  sessionTtlMs: number;
  hooks?: SshHooks;
  artifacts?: ArtifactLocations;
}

/** How to start the bridge on a prepared host. */
interface Launch {
  nodePath: string;
  serverPath: string;
}

/** The bridge's command, and the line it prints before its stdout becomes the protocol stream. */
export interface BridgeCommand {
  argv: string[];
  preamble: string;
}

/** Free space the install wants beyond the payload, for unpacking (payload × this factor). */
const UNPACK_SPACE_FACTOR = 5;

/** A hooks stand-in for callers without a UI: any question fails the connect, clearly. */
const NO_HOOKS: SshHooks = {
  prompt: () => Promise.resolve(null),
  onStage: () => undefined,
  onLog: () => undefined,
};

export class SshBootstrap {
  private readonly hooks: SshHooks;
  private dir: PrivateDir | null = null;
  private askpass: AskpassServer | null = null;
  private master: SshMaster | null = null;
  /** Why the current master attempt must fail, once the user (or the lack of one) said no. */
  private refusal: SshError | null = null;
  private bundle: ServerBundle | null = null;
  private launch: Launch | null = null;
  /** The master may be stuck on a dead network: the last bridge over it delivered nothing. */
  private masterSuspect = false;
  private disposed = false;

  constructor(private readonly options: SshBootstrapOptions) {
    this.hooks = options.hooks ?? NO_HOOKS;
  }

  private get destination(): string {
    return this.options.target.destination;
  }

  /**
   * Makes the host ready for a bridge: a live master (authenticating again if it died), and on a
   * fresh connect (or before the first success) the probe and any install.
   */
  async prepare(resume: boolean): Promise<void> {
    const master = await this.ensureMaster();
    if (resume && this.launch) return;
    this.launch = await this.prepareHost(master);
  }

  /** The bridge command for the prepared host; on resume it must not start a new daemon. */
  bridgeCommand(resume: boolean): BridgeCommand {
    const master = this.master;
    const launch = this.launch;
    if (!master || !launch) throw new SshError('transport', 'starting', 'The SSH host is not prepared.');
    this.hooks.onStage({
      stage: 'starting',
      detail: resume ? 'reattaching to the daemon' : 'starting the daemon',
    });
    const preamble = newMarker();
    const argv = master.commandArgv(
      remoteSh([
        `echo "${preamble}"`,
        `exec "${launch.nodePath}" "${launch.serverPath}" bridge --session-ttl-ms ${this.options.sessionTtlMs}` +
          (resume ? ' --no-start' : ''),
      ]),
    );
    return { argv, preamble };
  }

  /** The bridge over the master delivered nothing before it ended: rebuild the master next time. */
  suspectMaster(): void {
    this.masterSuspect = true;
  }

  connected(): void {
    this.masterSuspect = false;
    this.hooks.onStage({ stage: 'connected' });
  }

  dispose(): void {
    this.disposed = true;
    this.master?.stop();
    this.askpass?.close();
    this.dir?.remove();
    this.master = null;
    this.askpass = null;
    this.dir = null;
  }

  // ── The master ──────────────────────────────────────────────────────────────────────────────

  private async ensureMaster(): Promise<SshMaster> {
    if (this.disposed) throw new SshError('closed', 'connecting', 'The SSH connection was closed.');
    if (this.master && !this.masterSuspect && (await this.master.check())) return this.master;
    if (!this.dir || !this.askpass) {
      this.dir = new PrivateDir();
      this.askpass = await AskpassServer.start(this.dir, (request) => this.answer(request));
    }
    this.master ??= new SshMaster(this.options.target, this.dir.file('cm'), this.askpass.env(), (line) =>
      this.hooks.onLog(line),
    );
    this.refusal = null;
    this.masterSuspect = false;
    try {
      await this.master.start((event) => this.hooks.onStage(event));
    } catch (error) {
      throw this.refusal ?? error;
    }
    if (this.disposed) throw new SshError('closed', 'connecting', 'The SSH connection was closed.');
    return this.master;
  }

  /** One askpass question: asked through the hooks, once; a no ends this master attempt. */
  private async answer(request: AskpassRequest): Promise<string | null> {
    if (request.kind === 'notice') {
      this.hooks.onLog(`ssh: ${request.text}`);
      this.hooks.onStage({ stage: 'authenticating', detail: request.text });
      return '';
    }
    // After a refusal ssh may try its next method and ask again: it gets no second question.
    if (this.refusal) return null;
    this.hooks.onStage({
      stage: request.kind === 'hostKey' ? 'connecting' : 'authenticating',
      detail: request.text,
    });
    const answer = this.options.hooks
      ? await this.options.hooks.prompt({
          kind: request.kind,
          text: request.text,
          destination: this.destination,
          secret: request.secret,
        })
      : null;
    if (answer !== null) return answer;
    this.refusal = this.options.hooks
      ? new SshError('cancelled', 'authenticating', `Connecting to ${this.destination} was cancelled.`)
      : new SshError(
          'auth',
          'authenticating',
          `ssh asked "${request.text.trim()}" while connecting to ${this.destination}, and nothing here can ` +
            'answer prompts; use a key (or agent) that needs no passphrase, or connect from the app or a terminal.',
        );
    this.master?.stop();
    return null;
  }

  // ── The host ────────────────────────────────────────────────────────────────────────────────

  private async prepareHost(master: SshMaster): Promise<Launch> {
    this.hooks.onStage({ stage: 'checking', detail: `examining ${this.destination}` });
    this.bundle ??= await loadServerBundle(this.options.artifacts ?? {});
    const bundle = this.bundle;
    const facts = await probeHost(master, bundle.id, this.options.remoteNodePath);
    this.hooks.onLog(describeFacts(facts));
    const unfit = hostRequirementsError(facts, this.destination);
    if (unfit) throw unfit;
    let choice = nodeChoice(facts, this.options.remoteNodePath);
    const serverDir = remoteServerDir(facts.home, bundle.id);

    const bundleArtifact =
      facts.installedManifestSha256 === bundle.manifestSha256
        ? null
        : await bundleArtifactFor(bundle, serverDir, facts.tools.has('gzip'));
    const runtimeArtifact = choice.kind === 'runtime' ? this.runtimeArtifact(facts) : null;
    const progress = new InstallProgress(this.hooks, [bundleArtifact, runtimeArtifact]);
    if (bundleArtifact) {
      this.checkSpace(facts, [bundleArtifact, runtimeArtifact]);
      await progress.run(master, bundleArtifact, `uploading the Tether server ${bundle.version}`);
    }
    if (choice.kind === 'host' && !(await loadsNodePty(master, choice.path, serverDir))) {
      if (this.options.remoteNodePath !== undefined) {
        throw new SshError(
          'hostSetup',
          'checking',
          `remoteNodePath "${choice.path}" cannot load Tether's terminal support (node-pty) on ${this.destination}.`,
        );
      }
      this.hooks.onLog(`host node ${choice.path} cannot load node-pty; using Tether's own runtime`);
      choice = { kind: 'runtime' };
    }
    let nodePath: string;
    if (choice.kind === 'runtime') {
      const artifact = runtimeArtifact ?? this.runtimeArtifact(facts);
      if (artifact) {
        this.checkSpace(facts, [artifact]);
        await new InstallProgress(this.hooks, [artifact]).run(master, artifact, 'uploading a Node runtime');
      }
      nodePath = `${this.runtimeDir(facts)}/bin/node`;
    } else {
      nodePath = choice.path;
    }
    if (bundleArtifact) await this.collectGarbage(master, nodePath, serverDir, bundle.id);
    this.hooks.onLog(`server: ${serverDir} with node ${nodePath}`);
    return { nodePath, serverPath: `${serverDir}/${REMOTE_BUNDLE_ENTRY}` };
  }

  private runtimeDir(facts: HostFacts): string {
    const runtime = findNodeRuntime(this.options.artifacts ?? {}, facts.arch ?? '');
    if (!runtime) {
      throw new SshError(
        'hostSetup',
        'checking',
        `${this.destination} has no Node ≥ 20 (found: ${facts.nodePath ?? 'none'}), and no Node runtime for ` +
          `linux-${facts.arch} was fetched to upload ("npm run fetch-node-runtimes"). ${REMOTE_NODE_PATH_HINT}`,
      );
    }
    return remoteRuntimeDir(facts.home, runtime.id);
  }

  /** The runtime to upload, or null if the host has it already. */
  private runtimeArtifact(facts: HostFacts): Artifact | null {
    const finalDir = this.runtimeDir(facts);
    const runtime = findNodeRuntime(this.options.artifacts ?? {}, facts.arch ?? '');
    if (!runtime || facts.runtimes.includes(runtime.id)) return null;
    // xz halves the upload (29 MB instead of the 52 MB npm tarball) when both ends have it.
    const useXz = runtime.xz !== undefined && facts.tools.has('xz');
    const payload = useXz && runtime.xz ? runtime.xz : runtime.tgz;
    if (!useXz && !facts.tools.has('gzip')) {
      throw new SshError(
        'hostSetup',
        'checking',
        `${this.destination} has neither xz nor gzip to unpack a Node runtime. ${REMOTE_NODE_PATH_HINT}`,
      );
    }
    return {
      finalDir,
      completeMarker: 'bin/node',
      payload: { file: payload.file },
      payloadBytes: payload.bytes,
      payloadSha256: payload.sha256,
      unpack: useXz ? { kind: 'xz-node' } : { kind: 'npm-node' },
      // A runtime the host cannot run (e.g. its glibc is too old) is never put in place.
      verify: './bin/node -e 0',
    };
  }

  private checkSpace(facts: HostFacts, artifacts: Array<Artifact | null>): void {
    const neededKb = artifacts.reduce(
      (sum, a) => sum + (a ? (a.payloadBytes * UNPACK_SPACE_FACTOR) / 1024 : 0),
      0,
    );
    if (facts.freeKb !== null && facts.freeKb < neededKb) {
      throw new SshError(
        'hostSetup',
        'installing',
        `${this.destination} has ${Math.round(facts.freeKb / 1024)} MB free in ${facts.home}; installing ` +
          `Tether needs about ${Math.ceil(neededKb / 1024)} MB.`,
      );
    }
  }

  /** Removes server versions no daemon uses any more (the bundle's own `gc`); failure is only logged. */
  private async collectGarbage(
    master: SshMaster,
    nodePath: string,
    serverDir: string,
    keep: string,
  ): Promise<void> {
    const run = await runOnHost(
      master,
      remoteSh([`exec "${nodePath}" "${serverDir}/server.mjs" gc --keep ${keep}`]),
    );
    if (run.code !== 0)
      this.hooks.onLog(`gc of old server versions failed (exit ${run.code}): ${run.stderr.trim()}`);
  }
}

/** One line of the connect log saying what the probe found. */
function describeFacts(facts: HostFacts): string {
  const libc = facts.musl ? 'musl' : facts.glibc ? `glibc ${facts.glibc.join('.')}` : 'libc unknown';
  const node = facts.nodePath ? `node ${facts.nodeMajor ?? '?'} at ${facts.nodePath}` : 'no node';
  const installed = facts.installedManifestSha256 ? 'server installed' : 'server not installed';
  return `host: ${facts.os} ${facts.machine}, ${libc}, ${node}, ${installed}, runtimes [${facts.runtimes.join(', ')}]`;
}

/** The bundle as one tar stream (gzip-compressed if the host can unpack it). */
async function bundleArtifactFor(bundle: ServerBundle, serverDir: string, gzip: boolean): Promise<Artifact> {
  const { stdout } = await promisify(execFile)('tar', ['-C', bundle.dir, '-cf', '-', '.'], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
    // macOS tar would add ._ resource-fork files otherwise.
    env: { ...process.env, COPYFILE_DISABLE: '1' },
  });
  const bytes = gzip ? gzipSync(stdout) : stdout;
  return {
    finalDir: serverDir,
    completeMarker: REMOTE_BUNDLE_MANIFEST,
    payload: { bytes },
    payloadBytes: bytes.length,
    payloadSha256: createHash('sha256').update(bytes).digest('hex'),
    unpack: { kind: 'tar', gzip },
  };
}

/** Whether `nodePath` on the host can load the bundle's node-pty (its ABI and glibc fit). */
async function loadsNodePty(master: SshMaster, nodePath: string, serverDir: string): Promise<boolean> {
  const run = await runOnHost(
    master,
    remoteSh([`exec "${nodePath}" -e "require(process.argv[1])" "${serverDir}/node-pty"`]),
  );
  return run.code === 0;
}

/** One progress bar over the artifacts of one install step. */
class InstallProgress {
  private readonly total: number;
  private done = 0;

  constructor(
    private readonly hooks: SshHooks,
    artifacts: Array<Artifact | null>,
  ) {
    this.total = artifacts.reduce((sum, a) => sum + (a?.payloadBytes ?? 0), 0);
  }

  async run(master: SshMaster, artifact: Artifact, detail: string): Promise<void> {
    const report = (sent: number): void =>
      this.hooks.onStage({
        stage: 'installing',
        detail,
        bytesSent: this.done + sent,
        bytesTotal: this.total,
      });
    report(0);
    const outcome = await installArtifact(master, artifact, report);
    this.hooks.onLog(`${artifact.finalDir}: ${outcome === 'installed' ? 'installed' : 'already installed'}`);
    this.done += artifact.payloadBytes;
    report(0);
  }
}
