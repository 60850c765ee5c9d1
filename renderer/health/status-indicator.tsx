// The link status of one environment: icon + coloured text, named for assistive tech and tests
// (e.g. "Connection: connected, 3 ms"), never colour alone. Its tooltip also says when the link is
// unencrypted ws:// over a network. LinkAlertDot is the at-a-glance marker of a link in trouble.
import {
  CircleDashed,
  CircleDot,
  CirclePause,
  CircleX,
  CircleHelp,
  Circle,
  Clock,
  LoaderCircle,
  RefreshCw,
  type LucideIcon,
} from 'lucide-react';
import { memo, useMemo } from 'react';
import type { EnvironmentView } from '../../shared/ipc';
import { linkStatus, linkTicks, type LinkStatus } from './link-status';
import { useHostContact } from '../app/host-contact-store';
import { useNow } from '../ui/use-now';
import { isUnencryptedRemoteUrl } from '../../shared/link-encryption';

const STATUS_ICONS: Record<LinkStatus['kind'], LucideIcon> = {
  idle: Circle,
  connecting: LoaderCircle,
  connected: CircleDot,
  degraded: CircleDashed,
  stalled: CirclePause,
  reconnecting: RefreshCw,
  failed: CircleX,
  expired: Clock,
  closed: Circle,
  unknown: CircleHelp,
};

// Memoised: a countdown redraws its text each second, not the icon's SVG.
export const StatusIcon = memo(function StatusIcon({ kind }: { kind: LinkStatus['kind'] }) {
  const Icon = STATUS_ICONS[kind];
  return <Icon className="status-icon" size={13} aria-hidden="true" />;
});

export function StatusIndicator({ env, compact = false }: { env: EnvironmentView; compact?: boolean }) {
  const now = useNow(linkTicks(env));
  const hostLost = useHostContact((s) => s.lost);
  const status = linkStatus(env, now, hostLost);
  // Parses the URL once per URL, not once per second of a countdown nor per change of the link:
  // each change from the host brings a new settings object with the same URL.
  const wsUrl = env.settings.kind === 'ws' ? env.settings.url : null;
  const unencrypted = useMemo(() => wsUrl !== null && isUnencryptedRemoteUrl(wsUrl), [wsUrl]);
  return (
    <span
      className={`status status-${status.kind}`}
      role="img"
      aria-label={status.label}
      title={unencrypted ? `${status.label} (unencrypted link: ws:// over the network)` : status.label}
    >
      <StatusIcon kind={status.kind} />
      <span className="status-text" aria-hidden="true">
        {compact ? status.kind : status.text}
      </span>
    </span>
  );
}

/** The links worth a marker in the sidebar, and what the marker says. */
const ALERTS: Partial<Record<LinkStatus['kind'], { tone: 'failed' | 'reconnecting'; label: string }>> = {
  failed: { tone: 'failed', label: 'Link failed' },
  expired: { tone: 'failed', label: 'Session expired' },
  reconnecting: { tone: 'reconnecting', label: 'Link down, reconnecting' },
  stalled: { tone: 'reconnecting', label: 'Link stalled' },
};

/** What the sidebar's marker says of `env`'s link, or null when it needs none. */
export function linkAlert(
  env: EnvironmentView,
  now: number,
  hostLost = false,
): { tone: string; label: string } | null {
  return ALERTS[linkStatus(env, now, hostLost).kind] ?? null;
}

/**
 * A dot on the environment's swatch when its link failed or is down: solid for failed, a ring for
 * reconnecting (shape as well as colour), with its name for assistive tech. Nothing when healthy.
 */
export function LinkAlertDot({ env, id }: { env: EnvironmentView; id?: string }) {
  // The marker says the kind of link, which the clock never changes: it does not tick.
  const alert = linkAlert(
    env,
    useNow(false),
    useHostContact((s) => s.lost),
  );
  if (!alert) return null;
  return (
    <span
      id={id}
      className={`link-alert link-alert-${alert.tone}`}
      role="img"
      aria-label={alert.label}
      title={alert.label}
    />
  );
}
