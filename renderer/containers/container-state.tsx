// A Container environment whose container stopped or was removed says so in those words (not as a
// generic link failure), with *Start container* when the engine can start it again.
import { Box, Play } from 'lucide-react';
import { useState } from 'react';
import type { EnvironmentView } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { startContainer } from './container-actions';

/** The link codes a container's own state explains (the client's ClientError codes). */
const CONTAINER_STATES: Record<string, string> = {
  containerStopped: 'Container stopped',
  containerGone: 'Container removed',
};

/** Whether the environment's failure is its container's state, which ContainerState says. */
export function failedByContainer(env: EnvironmentView): boolean {
  return env.link.kind === 'failed' && env.link.code !== undefined && env.link.code in CONTAINER_STATES;
}

export function ContainerState({ env }: { env: EnvironmentView }) {
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  if (!failedByContainer(env)) return null;
  const code = env.link.code ?? '';
  return (
    <div className="link-failure" role="alert" aria-label={CONTAINER_STATES[code]}>
      <Box size={16} aria-hidden="true" />
      <div>
        <strong>{CONTAINER_STATES[code]}</strong>
        <p className="failure-detail">{env.link.reason}</p>
        {error && <p className="field-error">{error}</p>}
      </div>
      {code === 'containerStopped' && (
        <button
          disabled={starting}
          onClick={() => {
            setStarting(true);
            setError(null);
            startContainer(env.id)
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setStarting(false));
          }}
        >
          <Play size={14} aria-hidden="true" />
          {starting ? 'Starting…' : 'Start container'}
        </button>
      )}
    </div>
  );
}
