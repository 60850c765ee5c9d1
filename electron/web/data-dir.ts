// Where web mode keeps its config and tokens: --data-dir, else $TETHER_WEB_USER_DATA, else
// $XDG_CONFIG_HOME/tether-web, else ~/.config/tether-web.
import os from 'node:os';
import path from 'node:path';

export function webDataDir(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return path.resolve(explicit);
  if (env.TETHER_WEB_USER_DATA) return path.resolve(env.TETHER_WEB_USER_DATA);
  const config = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(config, 'tether-web');
}
