// The SSH bootstrap of one environment: logs in (ssh-login.ts), whose master is the host's
// HostShell, then prepares the host and bridges to its daemon like any bootstrapped target
// (remote-host/host-bootstrap.ts).
import type { ClientError } from '../../client-error';
import {
  HostBootstrap,
  NO_HOOKS,
  type HostBootstrapOptions,
  type ShellAccess,
} from '../../remote-host/host-bootstrap';
import type { HostShell } from '../../remote-host/host-shell';
import type { SshHooks } from './ssh-hooks';
import { SshLogin } from './ssh-login';
import type { SshTarget } from './ssh-master';

export type { BridgeCommand } from '../../remote-host/host-setup';

export interface SshBootstrapOptions extends HostBootstrapOptions {
  target: SshTarget;
  /**
   * Sign in through the per-host master that outlives this process for a few minutes
   * (ControlPersist; the CLI's choice), instead of a master of this bootstrap's own (the app's).
   */
  sharedMaster?: boolean;
}

/** The master of an SSH login as a ShellAccess; `wrap` turns it into the shell to use (e.g. a container on the host). */
export class SshShellAccess implements ShellAccess {
  private readonly login: SshLogin;

  constructor(
    target: SshTarget,
    hooks: SshHooks | undefined,
    private readonly wrap: (master: HostShell) => HostShell = (master) => master,
    sharedMaster = false,
  ) {
    this.login = new SshLogin(target, hooks ?? NO_HOOKS, hooks, sharedMaster);
  }

  async open(): Promise<HostShell> {
    return this.wrap(await this.login.ensureMaster());
  }

  suspect(): void {
    this.login.suspectMaster();
  }

  trust(): void {
    this.login.trustMaster();
  }

  explain(error: ClientError): Promise<ClientError> {
    return Promise.resolve(error);
  }

  dispose(): void {
    this.login.dispose();
  }
}

export class SshBootstrap extends HostBootstrap {
  constructor(options: SshBootstrapOptions) {
    super(
      new SshShellAccess(options.target, options.hooks, undefined, options.sharedMaster === true),
      options,
    );
  }
}
