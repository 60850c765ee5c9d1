// The link status of one environment: icon + coloured text, named for assistive tech and tests
// (e.g. "Connection: connected, 3 ms"), never colour alone. Its tooltip also says when the link is
// unencrypted ws:// over a network.
import type { EnvironmentView } from '../../shared/ipc';
import { linkStatus } from '../link-status';
import { useNow } from '../use-now';
import { isUnencryptedLink } from './unencrypted-note';

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
      <span className="status-icon" aria-hidden="true">
        {status.icon}
      </span>
      <span aria-hidden="true">{compact ? status.kind : status.text}</span>
    </span>
  );
}
