// "Port 5173 (vite) → localhost:5173 — Open · Preview · Ignore": what the renderer says when port
// detection forwarded ports of processes Tether started (forwards.detected). Several found together
// come as one notice, summarised ("50 ports forwarded (node): 3000, 3001, 3002 and 47 more — Show
// ports · Ignore"); the AppService rate-limits them. Each port is announced once per environment for
// the page's life, so a dev server that restarts raises no second notice.
import { create } from 'zustand';
import type { ForwardView } from '../../shared/ipc';
import { useUi } from '../app/ui-store';
import { openForward } from './forward-actions';
import { previewForward } from './preview-actions';

/** One notice: the forwards of one environment announced together. */
export interface DetectedNotice {
  id: string;
  envId: string;
  forwards: ForwardView[];
}

interface DetectedState {
  list: DetectedNotice[];
  /** `envId:port` of every port shown already this session. */
  shown: Set<string>;
  add: (envId: string, forwards: ForwardView[]) => void;
  dismiss: (notice: DetectedNotice) => void;
}

const keyOf = (f: ForwardView) => `${f.envId}:${f.port}`;

export const useDetectedPorts = create<DetectedState>((set) => ({
  list: [],
  shown: new Set(),
  add: (envId, forwards) =>
    set((s) => {
      const fresh = forwards.filter((f) => !s.shown.has(keyOf(f)));
      if (fresh.length === 0) return s;
      const notice = { id: fresh.map((f) => f.id).join(','), envId, forwards: fresh };
      return { list: [...s.list, notice], shown: new Set([...s.shown, ...fresh.map(keyOf)]) };
    }),
  dismiss: (notice) => set((s) => ({ list: s.list.filter((n) => n.id !== notice.id) })),
}));

/** Ports named in a summary before "and N more". */
const SUMMARY_PORTS = 3;

/**
 * The process that listens, when known. Not the label: a printed URL's is the title of whatever
 * printed it, often the terminal's shell.
 */
function processOf(f: ForwardView): string | null {
  return f.process?.name || null;
}

/** The notice's words, built here only: one port, or a summary of several. */
export function noticeText(forwards: ForwardView[]): string {
  if (forwards.length === 1) {
    const f = forwards[0]!;
    const who = processOf(f);
    return `Port ${f.port}${who ? ` (${who})` : ''} → localhost:${f.boundPort ?? '—'}`;
  }
  const names = [...new Set(forwards.map(processOf).filter((n): n is string => n !== null))];
  const who = names.length === 1 ? ` (${names[0]})` : '';
  const ports = forwards.slice(0, SUMMARY_PORTS).map((f) => f.port);
  const more = forwards.length - ports.length;
  return `${forwards.length} ports forwarded${who}: ${ports.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The notice's accessible name. */
export function noticeLabel(forwards: ForwardView[]): string {
  return forwards.length === 1 ? `Port ${forwards[0]!.port} forwarded` : `${forwards.length} ports forwarded`;
}

export function DetectedPorts() {
  const list = useDetectedPorts((s) => s.list);
  const dismiss = useDetectedPorts((s) => s.dismiss);
  if (list.length === 0) return null;
  return (
    <div className="toast-stack detected-ports" role="status" aria-live="polite" aria-label="Forwarded ports">
      {list.map((notice) => {
        const single = notice.forwards.length === 1 ? notice.forwards[0]! : null;
        return (
          <div key={notice.id} className="toast toast-info" aria-label={noticeLabel(notice.forwards)}>
            <span>{noticeText(notice.forwards)}</span>
            {single ? (
              <>
                <button
                  onClick={() => {
                    dismiss(notice);
                    void openForward(single).catch(() => undefined);
                  }}
                >
                  Open
                </button>
                <button
                  title="Open in an app tab"
                  onClick={() => {
                    dismiss(notice);
                    void previewForward(single).catch(() => undefined);
                  }}
                >
                  Preview
                </button>
              </>
            ) : (
              <button
                onClick={() => {
                  dismiss(notice);
                  useUi.getState().selectEnv(notice.envId);
                  useUi.getState().showPanel(notice.envId, 'ports');
                }}
              >
                Show ports
              </button>
            )}
            <button onClick={() => dismiss(notice)}>Ignore</button>
          </div>
        );
      })}
    </div>
  );
}
