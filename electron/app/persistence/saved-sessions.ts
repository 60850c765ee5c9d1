// What an app restart needs to bring the panes' processes back: per environment, the server session
// id (when it outlives the app) and each process (its id, how it was started, the last seq
// delivered, and how it ended if it has). One versioned JSON file in the data dir, bounded, written
// atomically; a file that cannot be used is ignored.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { EnvironmentId, ShellCommand, WatchedProcess } from '../../../shared/ipc';
import { writeFileAtomic } from './atomic-file';
import { MAX_SAVED_PROCESSES_PER_ENVIRONMENT, MAX_SHELL_COMMANDS } from '../limits';
import { errorMessage } from '../../../shared/error-message';

export const SAVED_SESSIONS_FILE_NAME = 'sessions.json';
const SAVED_SESSIONS_VERSION = 1;

const TerminalSize = z.object({ cols: z.number().int().positive(), rows: z.number().int().positive() });

/** How a process had ended when the app saved it; absent while it ran. */
export const SavedEnding = z.object({
  state: z.enum(['exited', 'failed', 'lost']),
  exitCode: z.number().int().nullable(),
  failure: z.string().max(4_096).nullable(),
  endedAt: z.number().nullable(),
});
export type SavedEnding = z.infer<typeof SavedEnding>;

export const SavedProcess = z.object({
  processId: z.string().min(1).max(200),
  argv: z.array(z.string().max(32_768)).min(1).max(1_024),
  cwd: z.string().max(4_096),
  env: z.record(z.string(), z.string()).optional(),
  tty: z.boolean(),
  size: TerminalSize.nullable(),
  /** Started with an output window on a server with flow control. */
  flowControl: z.boolean(),
  resizable: z.boolean(),
  pid: z.number().int().nullable(),
  startedAt: z.number(),
  /** The last seq the app had delivered when it saved (0 before any output). */
  lastSeq: z.number().int().nonnegative(),
  ended: SavedEnding.optional(),
  /** Another client's process this app followed (processes.watch): still watched after a restart. */
  watched: WatchedProcess.optional(),
  /** A shell's command history (shell integration), oldest first. */
  commands: z.array(ShellCommand).max(MAX_SHELL_COMMANDS).optional(),
});
export type SavedProcess = z.infer<typeof SavedProcess>;

export const SavedSession = z.object({
  /** Null for an environment whose session ends with the app (Local): its processes come back ended. */
  sessionId: z.string().min(1).max(200).nullable(),
  processes: z.array(SavedProcess).max(MAX_SAVED_PROCESSES_PER_ENVIRONMENT),
});
export type SavedSession = z.infer<typeof SavedSession>;

// Each environment's entry is checked on its own: one bad entry (say, a server's absurd session
// id) costs that environment its restore, never every other environment's.
const SavedSessionsFile = z.object({
  version: z.literal(SAVED_SESSIONS_VERSION),
  environments: z.record(z.string(), z.unknown()),
});

export class SavedSessions {
  readonly file: string;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, SAVED_SESSIONS_FILE_NAME);
  }

  /** The saved sessions by environment id; empty when there is no file or it cannot be used. */
  async load(): Promise<{ sessions: Map<string, SavedSession>; problem: string | null }> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: new Map(), problem: null };
      return { sessions: new Map(), problem: `it could not be read (${errorMessage(error)})` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { sessions: new Map(), problem: `it is not valid JSON: ${errorMessage(error)}` };
    }
    const parsed = SavedSessionsFile.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        sessions: new Map(),
        problem: `unexpected content at ${issue?.path.join('.') || 'the top level'}`,
      };
    }
    const sessions = new Map<string, SavedSession>();
    const refused: string[] = [];
    for (const [envId, entry] of Object.entries(parsed.data.environments)) {
      const session = SavedSession.safeParse(entry);
      if (EnvironmentId.safeParse(envId).success && session.success) sessions.set(envId, session.data);
      else refused.push(envId.slice(0, 80));
    }
    const problem =
      refused.length === 0 ? null : `the saved session of environment(s) ${refused.join(', ')} is unusable`;
    return { sessions, problem };
  }

  /** Replaces the file with these sessions; saves are serialised so the last call wins on disk. */
  save(sessions: Map<string, SavedSession>): Promise<void> {
    // What a load would refuse is not written: a server's session id is the server's to choose.
    const usable = [...sessions].filter(([, session]) => SavedSession.safeParse(session).success);
    const body = { version: SAVED_SESSIONS_VERSION, environments: Object.fromEntries(usable) };
    const run = this.chain.then(() => writeFileAtomic(this.file, JSON.stringify(body) + '\n'));
    this.chain = run.catch(() => undefined);
    return run;
  }
}
