// The SSH bootstrap of one environment: logs in (ssh-login.ts), then prepares the host through
// the master as its HostShell (remote-host/host-setup.ts), and hands out the command that bridges
// stdio to the host's daemon. It owns no session state: the client above resumes sessions, the
// daemon on the host keeps them.
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { bridgeCommand, HostSetup, type BridgeCommand, type Launch } from '../../remote-host/host-setup';
import { SshError } from './ssh-error';
import type { SshHooks } from './ssh-hooks';
import { SshLogin } from './ssh-login';
import type { SshMaster, SshTarget } from './ssh-master';

export type { BridgeCommand } from '../../remote-host/host-setup';

export interface SshBootstrapOptions {
  target: SshTarget;
  /** A node of the user's own on the host; skips the host's PATH and the runtime upload. */
  remoteNodePath?: string;
  sessionTtlMs: number;
  hooks?: SshHooks;
  artifacts?: ArtifactLocations;
}

/** A hooks stand-in for callers without a UI: any question fails the connect, clearly. */
const NO_HOOKS: SshHooks = {
  prompt: () => Promise.resolve(null),
  onStage: () => undefined,
  onLog: () => undefined,
};

export class SshBootstrap {
  private readonly hooks: SshHooks;
  private readonly login: SshLogin;
  private master: SshMaster | null = null;
  private setup: HostSetup | null = null;
  private launch: Launch | null = null;

  constructor(private readonly options: SshBootstrapOptions) {
    this.hooks = options.hooks ?? NO_HOOKS;
    this.login = new SshLogin(options.target, this.hooks, options.hooks);
  }

  /**
   * Makes the host ready for a bridge: a live master (authenticating again if it died), and on a
   * fresh connect (or before the first success) the probe and any install.
   */
  async prepare(resume: boolean): Promise<void> {
    const master = await this.login.ensureMaster();
    this.master = master;
    if (resume && this.launch) return;
    this.launch = await this.hostSetup(master).prepare();
  }

  /** Signs in and removes Tether from the host; a later prepare installs it again. */
  async uninstall(): Promise<UninstallReport> {
    const master = await this.login.ensureMaster();
    this.master = master;
    this.launch = null;
    return this.hostSetup(master).uninstall();
  }

  private hostSetup(master: SshMaster): HostSetup {
    this.setup ??= new HostSetup(master, {
      sessionTtlMs: this.options.sessionTtlMs,
      hooks: this.hooks,
      ...(this.options.remoteNodePath !== undefined ? { remoteNodePath: this.options.remoteNodePath } : {}),
      ...(this.options.artifacts ? { artifacts: this.options.artifacts } : {}),
    });
    return this.setup;
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
    return bridgeCommand(master, launch, this.options.sessionTtlMs, resume);
  }

  /** The bridge over the master delivered nothing before it ended: rebuild the master next time. */
  suspectMaster(): void {
    this.login.suspectMaster();
  }

  connected(): void {
    this.login.trustMaster();
    this.hooks.onStage({ stage: 'connected' });
  }

  dispose(): void {
    this.login.dispose();
    this.master = null;
  }
}
