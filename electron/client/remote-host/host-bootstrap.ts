// The bootstrap of one environment whose target Tether prepares itself (an SSH host, a container,
// anything an exec prefix reaches): it gets the target's HostShell from its ShellAccess (an SSH
// login, a container engine), prepares the target through it (host-setup.ts) and hands out the
// command that bridges stdio to the target's daemon. It owns no session state: the client above
// resumes sessions, the daemon on the target keeps them.
import { isClientError, type ClientError } from '../client-error';
import type { SshHooks } from '../transports/ssh/ssh-hooks';
import { HostSetup } from './host-setup';
import type { HostShell } from './host-shell';
import type { ArtifactLocations } from './local-artifacts';
import type { UninstallReport } from './remote-uninstall';

/** How a bootstrap reaches its target's shell, and what the target's failures mean. */
export interface ShellAccess {
  /** The shell, ready for the next command (an SSH login signs in again if its master died). */
  open(): Promise<HostShell>;
  /** A link delivered nothing before it ended: rebuild what links ride on before the next one. */
  suspect(): void;
  /** A link delivered: what it rides on works. */
  trust(): void;
  /**
   * `error` in the target's own terms where the target itself explains it (a container that
   * stopped or was removed), else `error` as it is. Asked only after a failure.
   */
  explain(error: ClientError): Promise<ClientError>;
  dispose(): void;
}

export interface HostBootstrapOptions {
  /** A node of the user's own on the target; skips the target's PATH and the runtime upload. */
  remoteNodePath?: string;
  sessionTtlMs: number;
  hooks?: SshHooks;
  artifacts?: ArtifactLocations;
}

/** A hooks stand-in for callers without a UI: any question fails the connect, clearly. */
export const NO_HOOKS: SshHooks = {
  prompt: () => Promise.resolve(null),
  onStage: () => undefined,
  onLog: () => undefined,
};

export class HostBootstrap {
  protected readonly hooks: SshHooks;
  private setup: HostSetup | null = null;

  constructor(
    readonly access: ShellAccess,
    private readonly options: HostBootstrapOptions,
  ) {
    this.hooks = options.hooks ?? NO_HOOKS;
  }

  /**
   * A usable shell (an SSH login signs in again if its master died) and the setup that rides on
   * it. The target is examined and installed to only when its checked bridge says it must be
   * (host-bridge.ts).
   */
  async prepare(): Promise<HostSetup> {
    try {
      return this.hostSetup(await this.access.open());
    } catch (error) {
      throw isClientError(error) ? await this.access.explain(error) : error;
    }
  }

  /** Removes Tether from the target; a later prepare installs it again. */
  async uninstall(): Promise<UninstallReport> {
    return this.hostSetup(await this.access.open()).uninstall();
  }

  private hostSetup(shell: HostShell): HostSetup {
    this.setup ??= new HostSetup(shell, {
      sessionTtlMs: this.options.sessionTtlMs,
      hooks: this.hooks,
      ...(this.options.remoteNodePath !== undefined ? { remoteNodePath: this.options.remoteNodePath } : {}),
      ...(this.options.artifacts ? { artifacts: this.options.artifacts } : {}),
    });
    return this.setup;
  }

  /** The bridge delivered nothing before it ended: rebuild what it rides on next time. */
  suspectMaster(): void {
    this.access.suspect();
  }

  /**
   * The checked bridge passed its check and runs; on resume it started no new daemon. (Said once
   * it runs, not before: a target it finds unprepared is examined and installed to first.)
   */
  connected(resume: boolean): void {
    this.access.trust();
    this.hooks.onStage({
      stage: 'starting',
      detail: resume ? 'reattaching to the daemon' : 'starting the daemon',
    });
    this.hooks.onStage({ stage: 'connected' });
  }

  /** A line for the connect log (`--verbose`). */
  log(line: string): void {
    this.hooks.onLog(line);
  }

  dispose(): void {
    this.access.dispose();
  }
}

/** A shell that is always there (a local command runs it): nothing to sign in to or rebuild. */
export class FixedShellAccess implements ShellAccess {
  constructor(
    private readonly shell: HostShell,
    private readonly explainer: (error: ClientError) => Promise<ClientError> = (error) =>
      Promise.resolve(error),
  ) {}

  open(): Promise<HostShell> {
    return Promise.resolve(this.shell);
  }

  suspect(): void {}

  trust(): void {}

  explain(error: ClientError): Promise<ClientError> {
    return this.explainer(error);
  }

  dispose(): void {}
}
