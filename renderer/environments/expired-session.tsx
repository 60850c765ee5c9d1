// The expired state of an environment: its session ended on the server while the link was down, so
// its processes ended with it. Says when, names those processes (their panes keep their output) and
// offers a new session — never started behind the user's back.
import { useState } from 'react';
import type { EnvironmentView, ProcessView } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { reconnectNow } from './environment-actions';
import { formatTimeOfDay } from '../ui/format';
import { processesOf, useProcesses } from '../processes/processes-store';
import { ErrorLine } from '../ui/error-line';

/** The processes that were still running when the session ended: the app marks them lost then. */
export function endedWithSession(processes: ProcessView[], expiredSince: number): ProcessView[] {
  return processes.filter((p) => p.state === 'lost' && p.endedAt !== null && p.endedAt >= expiredSince);
}

export function ExpiredSession({ env }: { env: EnvironmentView }) {
  const byKey = useProcesses((s) => s.byKey);
  const [error, setError] = useState<string | null>(null);
  const { link } = env;
  if (link.kind !== 'failed' || link.expiredAt === undefined) return null;
  const ended = endedWithSession(processesOf(byKey, env.id), link.since);
  return (
    <section className="banner bad expired-session" aria-label="Session expired">
      <p>
        <strong>Session expired at {formatTimeOfDay(link.expiredAt)}.</strong> The link was down longer than
        the server keeps a detached session, so{' '}
        {ended.length === 0
          ? 'the processes of that session ended with it.'
          : ended.length === 1
            ? 'this process ended with it; its output is kept in its pane:'
            : `these ${ended.length} processes ended with it; their output is kept in their panes:`}
      </p>
      {ended.length > 0 && (
        <ul aria-label="Processes that ended with the session">
          {ended.map((p) => (
            <li key={p.processId}>{p.title}</li>
          ))}
        </ul>
      )}
      <button
        onClick={() => {
          setError(null);
          reconnectNow(env.id).catch((e: unknown) => setError(errorMessage(e)));
        }}
      >
        Start a new session
      </button>
      <ErrorLine message={error} />
    </section>
  );
}
