// "Port 5173 (vite) → localhost:5173 — Open · Preview · Ignore": what the renderer says when the
// AppService forwarded a port a process printed (forwards.detected), naming that process. One per environment and port for the page's life,
// so a dev server that restarts and prints its URL again does not raise it again.
import { create } from 'zustand';
import type { ForwardView } from '../../shared/ipc';
import { openForward } from './forward-actions';
import { previewForward } from './preview-actions';

interface DetectedState {
  list: ForwardView[];
  /** `envId:port` of every one shown already this session. */
  shown: Set<string>;
  add: (forward: ForwardView) => void;
  dismiss: (forward: ForwardView) => void;
}

const keyOf = (f: ForwardView) => `${f.envId}:${f.port}`;

export const useDetectedPorts = create<DetectedState>((set) => ({
  list: [],
  shown: new Set(),
  add: (forward) =>
    set((s) =>
      s.shown.has(keyOf(forward))
        ? s
        : { list: [...s.list, forward], shown: new Set([...s.shown, keyOf(forward)]) },
    ),
  dismiss: (forward) => set((s) => ({ list: s.list.filter((f) => f.id !== forward.id) })),
}));

export function DetectedPorts() {
  const list = useDetectedPorts((s) => s.list);
  const dismiss = useDetectedPorts((s) => s.dismiss);
  if (list.length === 0) return null;
  return (
    <div className="toast-stack detected-ports" role="status" aria-live="polite" aria-label="Forwarded ports">
      {list.map((f) => (
        <div key={f.id} className="toast toast-info" aria-label={`Port ${f.port} forwarded`}>
          <span>
            Port {f.port}
            {f.label ? <span className="muted"> ({f.label})</span> : null} → localhost:{f.boundPort ?? '—'}
          </span>
          <button
            onClick={() => {
              dismiss(f);
              void openForward(f).catch(() => undefined);
            }}
          >
            Open
          </button>
          <button
            title="Open in an app tab"
            onClick={() => {
              dismiss(f);
              void previewForward(f).catch(() => undefined);
            }}
          >
            Preview
          </button>
          <button onClick={() => dismiss(f)}>Ignore</button>
        </div>
      ))}
    </div>
  );
}
