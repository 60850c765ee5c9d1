// What quitting would end: the running processes of environments whose server is a child of the
// app (the Local environment, command environments). The hosts ask before they quit (Electron) or
// say what ended (web mode); remote sessions are saved and come back, so they never warn.
import type { EnvironmentRegistry } from './environment-registry';
import { sessionOutlivesApp, type TransportSpecOf } from './session-keeper';

export interface QuitWarning {
  /** One line: how many processes end, e.g. "Quitting ends 2 running processes in Local." */
  message: string;
  /** The processes, one per line (title and environment). */
  detail: string;
  count: number;
}

export function quitWarning(envs: EnvironmentRegistry, specOf: TransportSpecOf): QuitWarning | null {
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
  if (ending.length === 0) return null;
  const what = ending.length === 1 ? '1 running process' : `${ending.length} running processes`;
  return {
    message: `Quitting ends ${what} in ${[...envNames].join(', ')}.`,
    detail:
      `${ending.join('\n')}\n\nThese run on a server Tether started itself, which stops with the app. ` +
      'Processes in remote environments keep running and come back when you start Tether again.',
    count: ending.length,
  };
}
