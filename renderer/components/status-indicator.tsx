// The link status of one environment: icon + coloured text, named for assistive tech and tests
// (e.g. "Connection: connected, 3 ms"), never colour alone. Its tooltip also says when the link is
// unencrypted ws:// over a network.
import {
  CircleDashed,
  CircleDot,
  CirclePause,
  CircleX,
  Circle,
  Clock,
  LoaderCircle,
  RefreshCw,
  type LucideIcon,
} from 'lucide-react';
import type { EnvironmentView } from '../../shared/ipc';
import { linkStatus, type LinkStatus } from '../link-status';
import { useNow } from '../use-now';
import { isUnencryptedLink } from './unencrypted-note';

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
};

export function StatusIcon({ kind }: { kind: LinkStatus['kind'] }) {
  const Icon = STATUS_ICONS[kind];
  return <Icon className="status-icon" size={13} aria-hidden="true" />;
}

export function StatusIndicator({ env, compact = false }: { env: EnvironmentView; compact?: boolean }) {
  const now = useNow();
  const status = linkStatus(env, now);
  return (
    <span
      className={`status status-${status.kind}`}
      role="img"
      aria-label={status.label}
      title={
        isUnencryptedLink(env.settings)
          ? `${status.label} (unencrypted link: ws:// over the network)`
          : status.label
      }
    >
      <StatusIcon kind={status.kind} />
      <span className="status-text" aria-hidden="true">
        {compact ? status.kind : status.text}
      </span>
    </span>
  );
}
