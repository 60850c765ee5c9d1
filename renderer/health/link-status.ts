// Turns an environment's link state and health into the one status the UI shows everywhere
// (sidebar, status bar, tabs): a kind, a text and an accessible label that never rely on colour.
import type { EnvironmentView } from '../../shared/ipc';
import { formatMs, formatTimeOfDay } from '../ui/format';
import { sshFailureText, sshProgressText } from '../ssh/ssh-stage-text';

type LinkStatusKind =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'degraded'
  | 'stalled'
  | 'reconnecting'
  | 'expired'
  | 'failed'
  | 'closed'
  /** The page lost contact with its host: what it last heard of the link may no longer be true. */
  | 'unknown';

/**
 * What the UI says of a server that does not advertise how long it holds a detached session:
 * codex is the one such server, and it keeps one for about 80 s.
 */
export const UNADVERTISED_SESSION_LIFETIME = 'codex keeps a detached session ~80 s';

export interface LinkStatus {
  kind: LinkStatusKind;
  /** Short human text, e.g. "connected, 3 ms" or "reconnecting in 4 s". */
  text: string;
  /** Accessible name of the indicator, e.g. "Connection: connected, 3 ms". */
  label: string;
  icon: string;
  /** The whole failure message, for the one place that shows it in full (the environment view). */
  detail: string | null;
}

/** A failure reason outside the environment view: its first line, cut to fit one line. */
const SHORT_REASON_CHARS = 60;

export function shortReason(reason: string): string {
  const firstLine = reason.split('\n', 1)[0]!.trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  const short = sentence.replace(/[.!?]$/, '');
  return short.length > SHORT_REASON_CHARS ? `${short.slice(0, SHORT_REASON_CHARS - 1).trimEnd()}…` : short;
}

/** Retries closer than this are not counted down: attempts run every ~250 ms, "in 1 s" would lie. */
const COUNTDOWN_FROM_MS = 1_000;

const ICONS: Record<LinkStatusKind, string> = {
  idle: '○',
  connecting: '◌',
  connected: '●',
  degraded: '◐',
  stalled: '⏸',
  reconnecting: '↻',
  expired: '✕',
  failed: '✕',
  closed: '○',
  unknown: '?',
};

/** `hostLost`: the page cannot reach its host (useHostContact), so the link's state is unknown. */
export function linkStatus(env: EnvironmentView, now: number, hostLost = false): LinkStatus {
  if (hostLost) {
    const text = 'unknown (lost contact with Tether)';
    return { kind: 'unknown', text, label: `Connection: ${text}`, icon: ICONS.unknown, detail: null };
  }
  const { link, health } = env;
  let kind: LinkStatusKind = link.kind === 'closed' ? 'closed' : link.kind;
  const expiredAt = link.kind === 'failed' ? link.expiredAt : undefined;
  if (expiredAt !== undefined) kind = 'expired';
  else if (link.kind === 'connected' && health?.stalled) kind = 'stalled';
  else if (link.kind === 'connected' && health?.degraded) kind = 'degraded';

  let text: string;
  switch (kind) {
    case 'connected':
    case 'degraded':
      text = health?.lastRttMs != null ? `${kind}, ${formatMs(health.lastRttMs)}` : kind;
      break;
    case 'stalled': {
      text =
        health?.lastContactAt != null
          ? `stalled, no reply for ${secondsSince(health.lastContactAt, now)} s`
          : 'stalled';
      // The client gives a replaceable link up by itself: say when, so waiting is a choice.
      const reconnectAt = health?.stallReconnectAt ?? null;
      if (reconnectAt !== null) {
        text +=
          reconnectAt - now >= COUNTDOWN_FROM_MS
            ? ` · reconnecting in ${Math.ceil((reconnectAt - now) / 1000)} s`
            : ' · reconnecting';
      }
      break;
    }
    case 'reconnecting': {
      const retryAt = link.nextRetryAt ?? null;
      text =
        retryAt !== null && retryAt - now >= COUNTDOWN_FROM_MS
          ? `reconnecting in ${Math.ceil((retryAt - now) / 1000)} s`
          : 'reconnecting';
      if (link.attempt) text += ` (attempt ${link.attempt})`;
      // Until when a comeback still finds everything running (absent from older hosts: say nothing).
      if (typeof link.sessionHeldUntil === 'number') {
        text += ` · session held until ${formatTimeOfDay(link.sessionHeldUntil)}`;
      } else if (link.sessionHeldUntil === null) {
        text += ` · ${UNADVERTISED_SESSION_LIFETIME}`;
      }
      break;
    }
    case 'expired':
      text = `session expired at ${formatTimeOfDay(expiredAt ?? link.since)}`;
      break;
    case 'failed':
      // An SSH connect names the stage it failed in, with ssh's own message.
      text = env.sshConnect?.failure
        ? sshFailureText(env.sshConnect.failure)
        : link.reason
          ? `failed: ${shortReason(link.reason)}`
          : 'failed';
      // A first connect that failed is retried by itself (the server may not be up yet).
      if (link.retryAt !== undefined)
        text +=
          link.retryAt - now >= COUNTDOWN_FROM_MS
            ? ` · retrying in ${Math.ceil((link.retryAt - now) / 1000)} s`
            : ' · retrying';
      break;
    case 'idle':
      text = 'disconnected';
      break;
    default:
      text = kind;
  }
  // While an SSH connect is under way, its stage says more than "connecting".
  const ssh = env.sshConnect;
  if (
    ssh &&
    ssh.stage !== 'connected' &&
    (kind === 'connecting' || (kind === 'reconnecting' && link.nextRetryAt === null))
  ) {
    text = `${kind === 'reconnecting' ? 'reconnecting: ' : ''}${sshProgressText(ssh)}`;
  }
  const detail = kind === 'failed' && link.reason ? link.reason : null;
  return { kind, text, label: `Connection: ${text}`, icon: ICONS[kind], detail };
}

/**
 * Whether *Reconnect now* has something to do: a link that is down and not expired (expiry offers
 * a new session instead), or a stalled one the client can replace without losing its session.
 */
export function offersReconnectNow(env: EnvironmentView): boolean {
  if (!env.enabled) return false;
  if (env.link.kind !== 'connected') return env.link.expiredAt === undefined;
  return env.health?.stalled === true && env.health.stallReconnectAt !== null;
}

/**
 * Whether linkStatus's text for `env` changes as time passes (a countdown or a ticking duration):
 * only such links need the per-second clock; every other one is redrawn only when it changes.
 */
export function linkTicks(env: EnvironmentView): boolean {
  const { link, health } = env;
  if (link.kind === 'reconnecting') return link.nextRetryAt != null;
  if (link.kind === 'failed') return link.retryAt !== undefined;
  return link.kind === 'connected' && health?.stalled === true;
}

function secondsSince(at: number, now: number): number {
  return Math.max(0, Math.round((now - at) / 1000));
}
