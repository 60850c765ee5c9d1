// Which helper programs (rg, grep, git, find) an environment's host has, learnt once: the first try
// of each that fails to start marks it missing, so later searches go straight to the next one.
export type HostTool = 'rg' | 'grep' | 'git' | 'find';

export class HostTools {
  private readonly present = new Map<HostTool, boolean>();

  /** true or false once tried; undefined before. */
  known(tool: HostTool): boolean | undefined {
    return this.present.get(tool);
  }

  found(tool: HostTool, present: boolean): void {
    this.present.set(tool, present);
  }
}
