// What quitting would lose: the running processes of environments whose server is a child of the
// app (the Local environment, command environments), and the unsaved changes in the renderers'
// editors. The hosts ask before they quit (Electron) or say what ended (web mode); remote sessions
// are saved and come back, so their processes never warn.
import type { EnvironmentRegistry } from './environment-registry';
import { sessionOutlivesApp, type TransportSpecOf } from './session-keeper';

export interface QuitWarning {
  /** What is lost, e.g. "Quitting ends 2 running processes in Local. 1 file has unsaved changes: a.txt." */
  message: string;
  /** The processes, one per line (title and environment), and what becomes of them and of the edits. */
  detail: string;
  /** How many processes end. */
  count: number;
  /** The names of the files whose unsaved changes are lost. */
  unsavedFiles: string[];
}

/** How many file names the one-line message lists before "and N more". */
const NAMED_FILES = 5;

export function quitWarning(
  envs: EnvironmentRegistry,
  specOf: TransportSpecOf,
  unsavedFiles: readonly string[],
): QuitWarning | null {
  const ending: string[] = [];
  const envNames = new Set<string>();
  for (const env of envs.all()) {
    if (sessionOutlivesApp(env, specOf)) continue;
    for (const process of env.processes.values()) {
      if (!process.running) continue;
      ending.push(`${process.snapshot.title} (${env.stored.name})`);
      envNames.add(env.stored.name);
    }
  }
  if (ending.length === 0 && unsavedFiles.length === 0) return null;
  const message: string[] = [];
  const detail: string[] = [];
  if (ending.length > 0) {
    const what = ending.length === 1 ? '1 running process' : `${ending.length} running processes`;
    message.push(`Quitting ends ${what} in ${[...envNames].join(', ')}.`);
    detail.push(
      `${ending.join('\n')}\n\nThese run on a server Tether started itself, which stops with the app. ` +
        'Processes in remote environments keep running and come back when you start Tether again.',
    );
  }
  if (unsavedFiles.length > 0) {
    message.push(`${unsavedSummary(unsavedFiles)}.`);
    detail.push('Quitting loses the unsaved changes in the editor.');
  }
  return {
    message: message.join(' '),
    detail: detail.join('\n\n'),
    count: ending.length,
    unsavedFiles: [...unsavedFiles],
  };
}

/** "2 files have unsaved changes: a.txt, b.md" (the first few names, then how many more). */
function unsavedSummary(files: readonly string[]): string {
  const what = files.length === 1 ? '1 file has' : `${files.length} files have`;
  const named = files.slice(0, NAMED_FILES).join(', ');
  const more = files.length > NAMED_FILES ? ` and ${files.length - NAMED_FILES} more` : '';
  return `${what} unsaved changes: ${named}${more}`;
}
