// The user's forwarded SSH agent, for processes of the daemon, the way tmux users do it: the daemon
// outlives the SSH session whose agent socket it could have inherited, so it never takes one from
// its environment. Instead each bridge whose SSH session forwards the agent (the client passes
// --forward-agent only when the user's ssh config says ForwardAgent) leaves an offer in the 0700
// run directory, `<id>.agent-<bridge pid>` → its own SSH_AUTH_SOCK, and the stable link
// `<id>.agent.sock` → one live offer. Processes get SSH_AUTH_SOCK=<stable link> only while a live
// offer exists. A bridge withdraws its offer when it ends, the link then moves to another live one
// or goes; offers of bridges that died without a word are dropped by the next refresh (every
// process start, and the daemon's timer). So a process reaches the agent of a live session of
// ours, or none: never a socket that is gone or that another user put in its place.
import { lstatSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { DaemonPaths } from './daemon-paths';
import { currentUid } from './private-dir';
import { processAlive } from './pid-lock';

/** Where a daemon's run files are: its directory and its socket `<dir>/<id>.sock`. */
export type AgentPaths = Pick<DaemonPaths, 'dir' | 'socket'>;

/** sun_path's room on Linux (107 bytes and a NUL; 103 elsewhere): a longer link is not offered. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** `<dir>/<id>` of a daemon's run files. */
function base(paths: AgentPaths): string {
  return paths.socket.replace(/\.sock$/, '');
}

/** The stable path processes get as SSH_AUTH_SOCK. */
export function agentLinkPath(paths: AgentPaths): string {
  return `${base(paths)}.agent.sock`;
}

function offerPath(paths: AgentPaths, pid: number): string {
  return `${base(paths)}.agent-${pid}`;
}

/** Whether `file` (followed through links) is a socket of ours, as an agent's must be. */
function ourSocket(file: string): boolean {
  try {
    const stats = statSync(file);
    return stats.isSocket() && stats.uid === currentUid();
  } catch {
    return false;
  }
}

interface Offer {
  name: string;
  pid: number;
  mtimeMs: number;
}

/** The live offers, newest first; dead ones (bridge gone, or socket gone or not ours) are removed. */
function liveOffers(paths: AgentPaths): Offer[] {
  const prefix = `${path.basename(base(paths))}.agent-`;
  const offers: Offer[] = [];
  let names: string[];
  try {
    names = readdirSync(paths.dir);
  } catch {
    return [];
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const file = path.join(paths.dir, name);
    if (!processAlive(pid) || !ourSocket(file)) {
      rmSync(file, { force: true });
      continue;
    }
    try {
      offers.push({ name, pid, mtimeMs: lstatSync(file).mtimeMs });
    } catch {
      // Withdrawn meanwhile.
    }
  }
  return offers.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/**
 * Points the stable link at a live offer (`prefer`'s, else the one it points at now, else the
 * newest) or removes it when there is none; returns whether processes may be given the link.
 */
export function refreshAgentLink(paths: AgentPaths, prefer: number | null = null): boolean {
  const link = agentLinkPath(paths);
  const offers = liveOffers(paths);
  let current: string | null = null;
  try {
    current = readlinkSync(link);
  } catch {
    // No link yet.
  }
  const chosen =
    offers.find((offer) => offer.pid === prefer) ??
    offers.find((offer) => offer.name === current) ??
    offers[0];
  if (!chosen) {
    rmSync(link, { force: true });
    return false;
  }
  if (chosen.name !== current) {
    // Relative, inside the private directory: the link leads to the offer, so a withdrawn offer
    // leaves it dangling at once instead of still leading to that session's socket.
    const staged = `${link}.${process.pid}.tmp`;
    rmSync(staged, { force: true });
    symlinkSync(chosen.name, staged);
    renameSync(staged, link);
  }
  return true;
}

/** The bridge's own forwarded agent (its SSH_AUTH_SOCK), offered to the daemon's processes. */
export function offerAgent(paths: AgentPaths, env: NodeJS.ProcessEnv = process.env): boolean {
  const socket = env.SSH_AUTH_SOCK;
  if (!socket || !path.isAbsolute(socket) || !ourSocket(socket)) return false;
  if (Buffer.byteLength(agentLinkPath(paths)) > MAX_SOCKET_PATH_BYTES) return false;
  const offer = offerPath(paths, process.pid);
  rmSync(offer, { force: true });
  symlinkSync(socket, offer);
  return refreshAgentLink(paths, process.pid);
}

/** The bridge is ending: its agent goes with its SSH session. */
export function withdrawAgent(paths: AgentPaths): void {
  rmSync(offerPath(paths, process.pid), { force: true });
  refreshAgentLink(paths);
}

/**
 * The base environment of the daemon's processes: its own (which never holds an agent) plus
 * SSH_AUTH_SOCK=<stable link> while some live bridge offers its agent.
 */
export function agentEnv(paths: AgentPaths, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { SSH_AUTH_SOCK: _inherited, ...rest } = env;
  return safeRefresh(paths) ? { ...rest, SSH_AUTH_SOCK: agentLinkPath(paths) } : rest;
}

/** refreshAgentLink for the daemon, which must not fail a process start or crash over it: no agent then. */
export function safeRefresh(paths: AgentPaths): boolean {
  try {
    return refreshAgentLink(paths);
  } catch {
    return false;
  }
}
