// Decides the taken names of one batch (an upload of several files, or one rename): asks the
// user about each in turn, unless they chose "apply to all", which answers the rest the same way.
import { useConflicts, type ConflictChoice } from './conflicts-store';

export class ConflictChoices {
  private remembered: ConflictChoice | null = null;
  private left: number;

  constructor(
    private readonly dir: string,
    conflicts: number,
  ) {
    this.left = conflicts;
  }

  async decide(name: string): Promise<ConflictChoice> {
    this.left = Math.max(0, this.left - 1);
    if (this.remembered) return this.remembered;
    const answer = await useConflicts.getState().ask({ name, dir: this.dir, more: this.left });
    if (answer.applyToAll) this.remembered = answer.choice;
    return answer.choice;
  }
}

/** Whether a command failed because the name it would write is taken. */
export function isConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'conflict';
}
