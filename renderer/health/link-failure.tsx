// The one place a link failure is said in full: under the environment's header. The sidebar, the
// status bar and the panes say it in one short line and point here.
import { CircleX } from 'lucide-react';
import type { EnvironmentView } from '../../shared/ipc';
import { linkStatus } from './link-status';
import { useHostContact } from '../app/host-contact-store';
import { useNow } from '../ui/use-now';

export function LinkFailure({ env }: { env: EnvironmentView }) {
  // While the host is out of reach the failure may be over: the banner says what is known.
  const status = linkStatus(
    env,
    useNow(),
    useHostContact((s) => s.lost),
  );
  if (!status.detail) return null;
  return (
    <div className="link-failure" role="alert" aria-label="Link failure">
      <CircleX size={16} aria-hidden="true" />
      <div>
        <strong>The link to {env.name} failed.</strong>
        <p className="failure-detail">{status.detail}</p>
      </div>
    </div>
  );
}
