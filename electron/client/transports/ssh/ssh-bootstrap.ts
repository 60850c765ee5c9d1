// The SSH bootstrap of one environment: logs in (ssh-login.ts) and hands out the host setup
// (remote-host/host-setup.ts) that runs through the master as its HostShell. It owns no session
// state: the client above resumes sessions, the daemon on the host keeps them.
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { HostSetup } from '../../remote-host/host-setup';
import type { SshHooks } from './ssh-hooks';
import { SshLogin } from './ssh-login';
import type { SshMaster, SshTarget } from './ssh-master';

export interface SshBootstrapOptions {
  target: SshTarget;
  /** A node of the user's own on the host; skips the host's PATH and the runtime upload. */
  remoteNodePath?: string;
  sessionTtlMs: number;
  hooks?: SshHooks;
  artifacts?: ArtifactLocations;
  /**
   * Sign in through the per-host master that outlives this process for a few minutes
   * (ControlPersist; the CLI's choice), instead of a master of this bootstrap's own (the app's).
   */
  sharedMaster?: boolean;
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
  private setup: HostSetup | null = null;

  constructor(private readonly options: SshBootstrapOptions) {
    this.hooks = options.hooks ?? NO_HOOKS;
    this.login = new SshLogin(options.target, this.hooks, options.hooks, options.sharedMaster === true);
  }

  /**
   * A live master (authenticating again if it died) and the host setup that rides on it. The host
   * is examined and installed to only when its checked bridge says it must be (host-bridge.ts).
   */
  async prepare(): Promise<HostSetup> {
    const master = await this.login.ensureMaster();
    return this.hostSetup(master);
  }

  /** Signs in and removes Tether from the host; a later connect installs it again. */
  async uninstall(): Promise<UninstallReport> {
    const master = await this.login.ensureMaster();
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

  /**
   * The checked bridge passed its check and runs; on resume it started no new daemon. (Said once
   * it runs, not before: a host it finds unprepared is examined and installed to first.)
   */
  connected(resume: boolean): void {
    this.login.trustMaster();
    this.hooks.onStage({
      stage: 'starting',
      detail: resume ? 'reattaching to the daemon' : 'starting the daemon',
    });
    this.hooks.onStage({ stage: 'connected' });
  }

  /** The bridge over the master delivered nothing before it ended: rebuild the master next time. */
  suspectMaster(): void {
    this.login.suspectMaster();
  }

  dispose(): void {
    this.login.dispose();
  }
}
