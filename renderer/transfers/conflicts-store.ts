// The one question about a taken name that is waiting for the user (an upload or a rename would
// replace something): what the dialog shows, and how its answer gets back to the waiting action.
import { create } from 'zustand';

export type ConflictChoice = 'replace' | 'keepBoth' | 'skip';

export interface ConflictAnswer {
  choice: ConflictChoice;
  /** Use this choice for the rest of the conflicts of the same batch without asking again. */
  applyToAll: boolean;
}

export interface ConflictQuestion {
  /** The name that is taken. */
  name: string;
  /** The folder it is taken in. */
  dir: string;
  /** Conflicts of the batch still to decide after this one (0 for a single file or a rename). */
  more: number;
}

interface ConflictsState {
  pending: (ConflictQuestion & { answer: (a: ConflictAnswer) => void }) | null;
  ask: (question: ConflictQuestion) => Promise<ConflictAnswer>;
}

export const useConflicts = create<ConflictsState>((set) => ({
  pending: null,
  ask: (question) =>
    new Promise<ConflictAnswer>((resolve) => {
      set({
        pending: {
          ...question,
          answer: (a) => {
            set({ pending: null });
            resolve(a);
          },
        },
      });
    }),
}));
