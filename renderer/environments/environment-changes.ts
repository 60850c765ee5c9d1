// Environment changes from the host, applied at most once per animation frame: when a whole fleet
// loses its link at once the host reports ~100 changes within a few milliseconds, and applying each
// on its own made as many React commits (and layouts) back to back, long tasks of the renderer.
import type { EnvironmentView } from '../../shared/ipc';
import { useEnvironments } from './environments-store';

/** What to do after a change is in the store; `before` is the environment as it was. */
export type EnvironmentChangeHandler = (before: EnvironmentView | undefined, after: EnvironmentView) => void;

let pending: EnvironmentView[] = [];
let scheduled: (() => void) | null = null;
let onApplied: EnvironmentChangeHandler | null = null;

/** Sets what runs for each change once it is applied (null: nothing). */
export function onEnvironmentChangeApplied(handler: EnvironmentChangeHandler | null): void {
  onApplied = handler;
}

/** Queues a change; the queue is applied in order in the next frame. */
export function queueEnvironmentChange(env: EnvironmentView): void {
  pending.push(env);
  if (scheduled) return;
  // A hidden page gets no animation frames: a timer still applies the changes there.
  if (typeof document !== 'undefined' && document.hidden) {
    const timer = setTimeout(flushEnvironmentChanges, 16);
    scheduled = () => clearTimeout(timer);
  } else {
    const frame = requestAnimationFrame(flushEnvironmentChanges);
    scheduled = () => cancelAnimationFrame(frame);
  }
}

/** Applies every queued change now, in one store update (also before anything that must see them). */
export function flushEnvironmentChanges(): void {
  scheduled?.();
  scheduled = null;
  const changes = pending;
  pending = [];
  if (changes.length === 0) return;
  const before = useEnvironments.getState().byId;
  const steps: [EnvironmentView | undefined, EnvironmentView][] = [];
  const seen: Record<string, EnvironmentView | undefined> = {};
  for (const env of changes) {
    steps.push([env.id in seen ? seen[env.id] : before[env.id], env]);
    seen[env.id] = env;
  }
  useEnvironments.getState().upsertMany(changes);
  for (const [was, env] of steps) onApplied?.(was, env);
}

/** Drops queued changes (the app stops). */
export function discardEnvironmentChanges(): void {
  scheduled?.();
  scheduled = null;
  pending = [];
}
