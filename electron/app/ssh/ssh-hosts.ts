// The host picker's list: every concrete `Host` alias of the user's ssh config (Includes that apply
// to every host followed, wildcard and negated patterns skipped, Match blocks ignored), each with
// what `ssh -G` resolves it to. ssh runs with an argv (no shell), bounded time, a few at a time.
import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SSHConfig, { LineType, type Line } from 'ssh-config';
import type { SshHostView } from '../../../shared/ipc';
import { parseSshTarget } from '../../../shared/ssh-target';
import { errorMessage } from '../../../shared/error-message';
import { SSH_CONFIG_INCLUDE_DEPTH, SSH_RESOLVE_CONCURRENCY, SSH_RESOLVE_TIMEOUT_MS } from '../limits';

export interface SshConfigLocation {
  /** The user's ssh client config file. */
  file: string;
  /**
   * Whether ssh must be told the file with `-F`: ssh reads ~/.ssh/config from the passwd home
   * directory, not $HOME, so a $HOME pointing elsewhere (a sandbox, a test) needs it spelled out.
   */
  explicit: boolean;
}

/**
 * The config ssh will read: $HOME's ~/.ssh/config, as the rest of the app sees the home directory,
 * named with `-F` when it exists but is not the passwd home's; otherwise the passwd home's.
 */
export function userSshConfig(home = os.homedir(), passwdHome = os.userInfo().homedir): SshConfigLocation {
  const file = path.join(home, '.ssh', 'config');
  // `-F` with a file that is not there is fatal to ssh ("Can't open user config file"); without
  // one, ssh reads the passwd home's config as it would for the user at a shell, so that is the
  // file the host list shows and a new Host entry goes to.
  if (home !== passwdHome && existsSync(file)) return { file, explicit: true };
  return { file: path.join(passwdHome, '.ssh', 'config'), explicit: false };
}

export async function listSshHosts(config: SshConfigLocation, ssh = 'ssh'): Promise<SshHostView[]> {
  const aliases = await configAliases(config.file);
  const views: SshHostView[] = new Array(aliases.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < aliases.length) {
      const index = next++;
      views[index] = await resolveHost(aliases[index]!, config, ssh);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SSH_RESOLVE_CONCURRENCY, aliases.length) }, worker));
  return views;
}

/** Concrete aliases in file order, each once; a missing config file has none. */
export async function configAliases(file: string): Promise<string[]> {
  const aliases = new Set<string>();
  await collect(file, path.dirname(file), 0, aliases);
  return [...aliases];
}

async function collect(file: string, baseDir: string, depth: number, aliases: Set<string>): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return; // ssh skips an Include that names no readable file; so does the picker.
  }
  await collectLines(SSHConfig.parse(text), baseDir, depth, aliases);
}

async function collectLines(lines: Iterable<Line>, baseDir: string, depth: number, aliases: Set<string>) {
  for (const line of lines) {
    if (line.type !== LineType.DIRECTIVE) continue;
    const param = line.param.toLowerCase();
    if (param === 'host') {
      for (const pattern of values(line.value)) if (isConcreteAlias(pattern)) aliases.add(pattern);
    }
    if (param === 'include' && depth < SSH_CONFIG_INCLUDE_DEPTH) {
      for (const pattern of values(line.value)) {
        for (const included of await expandInclude(pattern, baseDir)) {
          await collect(included, baseDir, depth + 1, aliases);
        }
      }
    }
    // ssh reads an Include inside a block only for hosts the block matches; `Host *` matches all.
    if (param === 'host' && 'config' in line && values(line.value).join(' ') === '*') {
      await collectLines(line.config, baseDir, depth, aliases);
    }
  }
}

function values(value: string | { val: string }[]): string[] {
  return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value.map((v) => v.val);
}

/**
 * A pattern naming one host, safe to hand to ssh as a destination: the destination rules admit no
 * wildcard (`*`, `?`), negation (`!`) or list (`,`).
 */
function isConcreteAlias(pattern: string): boolean {
  const parsed = parseSshTarget(pattern);
  return parsed.ok && parsed.value.destination === pattern;
}

/** An Include argument as ssh reads it: `~/` is the home, relative is under ~/.ssh, globs allowed. */
async function expandInclude(pattern: string, baseDir: string): Promise<string[]> {
  const absolute = pattern.startsWith('~/')
    ? path.join(os.homedir(), pattern.slice(2))
    : path.isAbsolute(pattern)
      ? pattern
      : path.join(baseDir, pattern);
  return glob(absolute);
}

/** `*` and `?` in any path segment, matched like ssh's glob(3); results sorted, as glob(3) sorts. */
async function glob(pattern: string): Promise<string[]> {
  const segments = pattern.split('/').filter(Boolean);
  let paths = ['/'];
  for (const segment of segments) {
    if (!/[*?]/.test(segment)) {
      paths = paths.map((p) => path.join(p, segment));
      continue;
    }
    const matcher = new RegExp(
      `^${segment
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    const next: string[] = [];
    for (const dir of paths) {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort())
        if (!name.startsWith('.') && matcher.test(name)) next.push(path.join(dir, name));
    }
    paths = next;
  }
  return paths;
}

async function resolveHost(alias: string, config: SshConfigLocation, ssh: string): Promise<SshHostView> {
  const argv = [...(config.explicit ? ['-F', config.file] : []), '-G', '--', alias];
  const unresolved = { alias, user: null, hostname: null, port: null, proxyJump: null, proxyCommand: null };
  try {
    const output = await run(ssh, argv);
    const options = new Map<string, string>();
    for (const line of output.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) options.set(line.slice(0, space).toLowerCase(), line.slice(space + 1).trim());
    }
    const port = Number(options.get('port'));
    return {
      ...unresolved,
      user: options.get('user') ?? null,
      hostname: options.get('hostname') ?? null,
      port: Number.isInteger(port) && port > 0 ? port : null,
      proxyJump: nonNone(options.get('proxyjump')),
      proxyCommand: nonNone(options.get('proxycommand')),
      problem: null,
    };
  } catch (error) {
    return { ...unresolved, problem: errorMessage(error) };
  }
}

function nonNone(value: string | undefined): string | null {
  return value === undefined || value.toLowerCase() === 'none' ? null : value;
}

function run(program: string, argv: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      argv,
      { timeout: SSH_RESOLVE_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1_048_576, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if (error.killed)
          return reject(new Error(`ssh -G did not answer within ${SSH_RESOLVE_TIMEOUT_MS / 1000} s.`));
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(new Error(`"${program}" was not found; install the OpenSSH client.`));
        }
        reject(new Error(stderr.trim().split('\n').at(-1) || error.message));
      },
    );
  });
}
