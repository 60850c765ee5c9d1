// Prepares a host for Tether's server through its HostShell, whatever the shell runs over: looks
// at the host, installs the server bundle (and a Node runtime when the host has no usable node)
// once per version, removes versions no daemon uses, builds the command that bridges stdio to the
// host's daemon, and removes it all again on request (remote-uninstall.ts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import {
  REMOTE_BUNDLE_ENTRY,
  REMOTE_BUNDLE_MANIFEST,
  REMOTE_SERVER_ROOT,
} from '../../../shared/remote-bundle';
import { SshError } from '../transports/ssh/ssh-error';
import { errorMessage } from '../../../shared/error-message';
import type { SshHooks } from '../transports/ssh/ssh-hooks';
import { HOST_UNPREPARED_EXIT, LAUNCH_RECORD } from './host-constants';
import type { HostShell } from './host-shell';
import {
  ensureNodeRuntime,
  findNodeRuntime,
  loadServerBundle,
  nodeRuntimeId,
  type ArtifactLocations,
  type NodeRuntime,
  type ServerBundle,
} from './local-artifacts';
import { NODE_RUNTIME_VERSION } from '../../../scripts/node-runtimes.mjs';
import { installArtifact, type Artifact } from './remote-install';
import {
  hostRequirementsError,
  nodeChoice,
  probeHost,
  REMOTE_NODE_PATH_HINT,
  remoteRuntimeDir,
  remoteServerDir,
  type HostFacts,
} from './remote-probe';
import { newMarker, remoteSh, runOnHost, safeRemotePath, SHA256_FUNCTION } from './remote-shell';
import { uninstallFromHost, type UninstallReport } from './remote-uninstall';

export interface HostSetupOptions {
  /** A node of the user's own on the host; skips the host's PATH and the runtime upload. */
  remoteNodePath?: string;
  sessionTtlMs: number;
  hooks: SshHooks;
  artifacts?: ArtifactLocations;
}

/** How to start the bridge on a prepared host. */
export interface Launch {
  nodePath: string;
  serverPath: string;
}

/** The bridge's command, and the line it prints before its stdout becomes the protocol stream. */
export interface BridgeCommand {
  argv: string[];
  preamble: string;
}

/** The runtime a host runs: its directory name there, and this machine's copy (null: not needed). */
interface ChosenRuntime {
  id: string;
  local: NodeRuntime | null;
}

/** Free space the install wants beyond the payload, for unpacking (payload × this factor). */
const UNPACK_SPACE_FACTOR = 5;

/**
 * The bridge's own arguments after `node server.mjs`. `locate`: the bridge only says where the
 * daemon's socket is (starting the daemon first unless resuming), for a direct link (host-direct.ts).
 */
function bridgeArgs(
  shell: HostShell,
  sessionTtlMs: number,
  resume: boolean,
  preamble: string,
  locate = false,
): string {
  return (
    `bridge --preamble ${preamble} --session-ttl-ms ${sessionTtlMs}` +
    (resume ? ' --no-start' : '') +
    (locate ? ' --locate' : shell.forwardsAgent === true ? ' --forward-agent' : '')
  );
}

/**
 * The bridge to the daemon of a prepared host, run through `shell`; on resume it must not start
 * a new daemon (its exit then says the daemon is gone).
 */
export function bridgeCommand(
  shell: HostShell,
  launch: Launch,
  sessionTtlMs: number,
  resume: boolean,
): BridgeCommand {
  const preamble = newMarker();
  const argv = shell.commandArgv(
    remoteSh([
      `exec "${launch.nodePath}" "${launch.serverPath}" ${bridgeArgs(shell, sessionTtlMs, resume, preamble)}`,
    ]),
    { agent: shell.forwardsAgent === true },
  );
  return { argv, preamble };
}

export class HostSetup {
  private bundle: ServerBundle | null = null;

  constructor(
    private readonly shell: HostShell,
    private readonly options: HostSetupOptions,
  ) {}

  private get hooks(): SshHooks {
    return this.options.hooks;
  }

  /** The host as messages name it. */
  get hostName(): string {
    return this.shell.hostName;
  }

  /** The shell this setup runs over (its direct road to the daemon's socket, if it has one). */
  get hostShell(): HostShell {
    return this.shell;
  }

  /** The id (`<version>-<hash>`) of the bundle this client runs on the host. */
  async bundleId(): Promise<string> {
    this.bundle ??= await loadServerBundle(this.options.artifacts ?? {});
    return this.bundle.id;
  }

  /**
   * The bridge in one host command, for a host a full setup (prepare) already prepared: it checks
   * that this bundle is installed (its manifest's sha256) and that a setup recorded the node to run
   * it with, then starts the bridge; otherwise it exits HOST_UNPREPARED_EXIT before its preamble,
   * and the caller prepares the host and asks again. A warm connect thus costs one command.
   */
  async checkedBridgeCommand(resume: boolean, locate = false): Promise<BridgeCommand> {
    this.bundle ??= await loadServerBundle(this.options.artifacts ?? {});
    const bundle = this.bundle;
    const preamble = newMarker();
    const wanted = this.options.remoteNodePath;
    const shell = this.shell;
    const argv = shell.commandArgv(
      remoteSh([
        SHA256_FUNCTION,
        `D="$HOME/${REMOTE_SERVER_ROOT}/${bundle.id}"`,
        `N="$(cat "$D/${LAUNCH_RECORD}" 2>/dev/null || true)"`,
        // The record names the node a setup checked: with "Node on the host" set, only that one.
        `if [ -n "$N" ] && [ -x "$N" ]` +
          (wanted !== undefined
            ? ` && [ "$N" = "${safeRemotePath(wanted, 'remoteNodePath', 'checking')}" ]`
            : '') +
          ` && [ "$(h "$D/${REMOTE_BUNDLE_MANIFEST}" 2>/dev/null)" = "${bundle.manifestSha256}" ]; then ` +
          `exec "$N" "$D/${REMOTE_BUNDLE_ENTRY}" ${bridgeArgs(shell, this.options.sessionTtlMs, resume, preamble, locate)}; fi`,
        `exit ${HOST_UNPREPARED_EXIT}`,
      ]),
      { agent: !locate && shell.forwardsAgent === true },
    );
    return { argv, preamble };
  }

  /** Probes the host, installs what it lacks, and says how to start the bridge there. */
  async prepare(): Promise<Launch> {
    const shell = this.shell;
    this.hooks.onStage({ stage: 'checking', detail: `examining ${shell.hostName}` });
    this.bundle ??= await loadServerBundle(this.options.artifacts ?? {});
    const bundle = this.bundle;
    const facts = await probeHost(shell, bundle.id, this.options.remoteNodePath);
    this.hooks.onLog(describeFacts(facts));
    const unfit = hostRequirementsError(facts, this.shell.hostName, this.options.remoteNodePath);
    if (unfit) throw unfit;
    let choice = nodeChoice(facts, this.options.remoteNodePath);
    const serverDir = remoteServerDir(facts.home, bundle.id);

    const bundleArtifact =
      facts.installedManifestSha256 === bundle.manifestSha256
        ? null
        : await bundleArtifactFor(bundle, serverDir, facts.tools.has('gzip'));
    const runtime = choice.kind === 'runtime' ? await this.runtimeFor(facts) : null;
    const runtimeArtifact = runtime ? this.runtimeArtifact(facts, runtime) : null;
    const progress = new InstallProgress(this.hooks, [bundleArtifact, runtimeArtifact]);
    if (bundleArtifact) {
      this.checkSpace(facts, [bundleArtifact, runtimeArtifact]);
      await progress.run(shell, bundleArtifact, `uploading the Tether server ${bundle.version}`);
    }
    if (choice.kind === 'host' && !(await loadsNodePty(shell, choice.path, serverDir))) {
      if (this.options.remoteNodePath !== undefined) {
        throw new SshError(
          'hostSetup',
          'checking',
          `"Node on the host" (${choice.path}) cannot load Tether's terminal support (node-pty) on ${this.shell.hostName}.`,
        );
      }
      this.hooks.onLog(`host node ${choice.path} cannot load node-pty; using Tether's own runtime`);
      choice = { kind: 'runtime' };
    }
    let nodePath: string;
    if (choice.kind === 'runtime') {
      const chosen = runtime ?? (await this.runtimeFor(facts));
      const artifact = runtimeArtifact ?? this.runtimeArtifact(facts, chosen);
      if (artifact) {
        this.checkSpace(facts, [artifact]);
        await new InstallProgress(this.hooks, [artifact]).run(shell, artifact, 'uploading a Node runtime');
      }
      nodePath = `${remoteRuntimeDir(facts.home, chosen.id)}/bin/node`;
    } else {
      nodePath = choice.path;
    }
    if (bundleArtifact) await this.collectGarbage(shell, nodePath, serverDir, bundle.id);
    await this.recordLaunch(serverDir, nodePath);
    this.hooks.onLog(`server: ${serverDir} with node ${nodePath}`);
    return { nodePath, serverPath: `${serverDir}/${REMOTE_BUNDLE_ENTRY}` };
  }

  /** Stops Tether's daemons on the host and removes what `prepare` installed there (any version). */
  uninstall(): Promise<UninstallReport> {
    this.hooks.onLog(`removing Tether from ${this.shell.hostName}`);
    return uninstallFromHost(this.shell);
  }

  /**
   * The runtime the host is to run: its id, and the copy on this machine to upload, fetched now
   * from the npm registry if it is missing here and the host lacks it too (null: the host has it).
   */
  private async runtimeFor(facts: HostFacts): Promise<ChosenRuntime> {
    const arch = facts.arch ?? '';
    const artifacts = this.options.artifacts ?? {};
    const found = findNodeRuntime(artifacts, arch);
    if (found) return { id: found.id, local: found };
    const id = nodeRuntimeId(NODE_RUNTIME_VERSION, arch);
    if (facts.runtimes.includes(id)) return { id, local: null };
    const name = `node-linux-${arch} ${NODE_RUNTIME_VERSION}`;
    this.hooks.onLog(`${this.shell.hostName} needs Node; fetching ${name} (not on this machine yet)`);
    let local: NodeRuntime;
    try {
      local = await ensureNodeRuntime(artifacts, arch, (bytes, total, from) =>
        this.hooks.onStage({
          stage: 'installing',
          detail: `downloading a Node runtime (${name}) from ${from}`,
          bytesSent: bytes,
          ...(total !== null ? { bytesTotal: total } : {}),
        }),
      );
    } catch (error) {
      if (!(error instanceof SshError)) throw error;
      throw new SshError(
        error.code,
        error.stage,
        `${this.shell.hostName} has no Node ≥ 20 (found: ${facts.nodePath ?? 'none'}). ${error.message} ${REMOTE_NODE_PATH_HINT}`,
      );
    }
    this.hooks.onLog(`fetched ${local.tgz.file}`);
    return { id: local.id, local };
  }

  /** The runtime to upload, or null if the host has it already. */
  private runtimeArtifact(facts: HostFacts, chosen: ChosenRuntime): Artifact | null {
    const runtime = chosen.local;
    if (!runtime || facts.runtimes.includes(chosen.id)) return null;
    const finalDir = remoteRuntimeDir(facts.home, chosen.id);
    // xz halves the upload (29 MB instead of the 52 MB npm tarball) when both ends have it.
    const useXz = runtime.xz !== undefined && facts.tools.has('xz');
    const payload = useXz && runtime.xz ? runtime.xz : runtime.tgz;
    if (!useXz && !facts.tools.has('gzip')) {
      throw new SshError(
        'hostSetup',
        'checking',
        `${this.shell.hostName} has neither xz nor gzip to unpack a Node runtime. ${REMOTE_NODE_PATH_HINT}`,
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
        `${this.shell.hostName} has ${Math.round(facts.freeKb / 1024)} MB free in ${facts.home}; installing ` +
          `Tether needs about ${Math.ceil(neededKb / 1024)} MB.`,
      );
    }
  }

  /** Writes the launch record checkedBridgeCommand starts the bridge with (atomically: a rename). */
  private async recordLaunch(serverDir: string, nodePath: string): Promise<void> {
    const record = `${serverDir}/${LAUNCH_RECORD}`;
    const run = await runOnHost(
      this.shell,
      remoteSh([`echo "${nodePath}" > "${record}.$$"`, `mv -f "${record}.$$" "${record}"`]),
      { stage: 'installing', doing: 'recording which node runs the server' },
    );
    if (run.code !== 0) {
      throw new SshError(
        'hostSetup',
        'installing',
        `Could not write ${record} on ${this.shell.hostName} (exit ${run.code}).${run.stderr.trim() ? `\n${run.stderr.trim()}` : ''}`,
      );
    }
  }

  /** Removes server versions no daemon uses any more (the bundle's own `gc`); failure is only logged. */
  private async collectGarbage(
    shell: HostShell,
    nodePath: string,
    serverDir: string,
    keep: string,
  ): Promise<void> {
    try {
      const run = await runOnHost(
        shell,
        remoteSh([`exec "${nodePath}" "${serverDir}/server.mjs" gc --keep ${keep}`]),
        { stage: 'installing', doing: 'removing old server versions' },
      );
      if (run.code !== 0)
        this.hooks.onLog(`gc of old server versions failed (exit ${run.code}): ${run.stderr.trim()}`);
    } catch (error) {
      this.hooks.onLog(`gc of old server versions failed: ${errorMessage(error)}`);
    }
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
async function loadsNodePty(shell: HostShell, nodePath: string, serverDir: string): Promise<boolean> {
  const run = await runOnHost(
    shell,
    remoteSh([`exec "${nodePath}" -e "require(process.argv[1])" "${serverDir}/node-pty"`]),
    { stage: 'checking', doing: "checking that the host's node loads node-pty" },
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

  async run(shell: HostShell, artifact: Artifact, detail: string): Promise<void> {
    const report = (sent: number): void =>
      this.hooks.onStage({
        stage: 'installing',
        detail,
        bytesSent: this.done + sent,
        bytesTotal: this.total,
      });
    report(0);
    const outcome = await installArtifact(shell, artifact, report);
    this.hooks.onLog(`${artifact.finalDir}: ${outcome === 'installed' ? 'installed' : 'already installed'}`);
    this.done += artifact.payloadBytes;
    report(0);
  }
}
