// A preview pane: a forwarded port's page inside the app, with back, forward, reload, home, its
// address and Open in browser. In the desktop app the page is a view of its own (electron/main/preview-views.ts)
// that this pane keeps placed over its body, hidden whenever the body is off screen or a dialog is
// open (a native view would cover the dialog). In web mode the body offers a browser tab instead.
// The pane follows its forward; once the forward is gone it says so and offers to forward again.
import { useEffect, useRef, useState } from 'react';
import { ArrowLeft, ArrowRight, ExternalLink, House, RotateCw } from 'lucide-react';
import type { ForwardView, PreviewBounds } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { previewHome } from '../../shared/preview-origin';
import { useUi } from '../app/ui-store';
import { hostKind } from '../ipc/host-kind';
import { invoke } from '../ipc/ipc-client';
import { PANE_ID_ATTRIBUTE } from '../panes/pane-actions';
import { ClosePaneButton, PaneButtons } from '../panes/pane-buttons';
import type { PaneProps } from '../panes/pane-kinds';
import { usePanes } from '../panes/panes-store';
import { openShell } from '../processes/process-actions';
import { ErrorLine } from '../ui/error-line';
import { addForward, loadForwards, openForward } from './forward-actions';
import { forwardsOf, useForwards } from './forwards-store';
import { forwardOfPreview, previewId, type PreviewContent } from './preview-actions';
import { usePreviews } from './previews-store';

/** The tab's title while a preview pane is focused: the page's title once it has one. */
export function previewTitle(envId: string, content: PreviewContent): string {
  const title = usePreviews.getState().byId[previewId(envId, content)]?.title;
  return title || `Preview of port ${content.port}`;
}

export function PreviewPane({
  env,
  paneId,
  content,
  focused,
  hiddenPanes,
  canMaximize,
}: PaneProps<PreviewContent>) {
  const forward = useForwards((s) => forwardOfPreview(forwardsOf(s.byEnv, env.id), content));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // A pane restored with the layout may be the first to need the environment's forwards.
    loadForwards(env.id).catch(() => undefined);
  }, [env.id]);
  const { focusPane } = usePanes.getState();
  const maximized = hiddenPanes > 0;
  const port = forward?.boundPort ?? null;
  const embedded = hostKind() === 'electron';
  const id = previewId(env.id, content);
  const state = usePreviews((s) => s.byId[id]);
  const act = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch((e: unknown) => setError(errorMessage(e)));
  };
  const navigate = (action: 'back' | 'forward' | 'reload' | 'home') =>
    act(() => invoke('preview.navigate', { id, action }));
  const address = port === null ? null : (state?.url ?? previewHome(port));
  const live = embedded && port !== null;
  return (
    <section
      className={`pane preview-kind${focused ? ' focused' : ''}${maximized ? ' maximized' : ''}`}
      aria-label={`Preview of port ${content.port}`}
      {...{ [PANE_ID_ATTRIBUTE]: paneId }}
      onMouseDown={() => focusPane(env.id, paneId)}
      onFocus={() => focusPane(env.id, paneId)}
    >
      <header className="pane-header preview-toolbar">
        {embedded && (
          <>
            <button
              className="icon"
              aria-label="Back"
              disabled={!live || !state?.canGoBack}
              onClick={() => navigate('back')}
            >
              <ArrowLeft size={14} aria-hidden="true" />
            </button>
            <button
              className="icon"
              aria-label="Forward"
              disabled={!live || !state?.canGoForward}
              onClick={() => navigate('forward')}
            >
              <ArrowRight size={14} aria-hidden="true" />
            </button>
            <button className="icon" aria-label="Reload" disabled={!live} onClick={() => navigate('reload')}>
              <RotateCw size={14} aria-hidden="true" />
            </button>
            <button
              className="icon"
              aria-label="Home"
              title="Back to the forward's first page"
              disabled={!live}
              onClick={() => navigate('home')}
            >
              <House size={14} aria-hidden="true" />
            </button>
          </>
        )}
        <output className="mono preview-address" aria-label="Address" title={address ?? undefined}>
          {address ?? `port ${content.port} (not forwarded)`}
        </output>
        {state?.loading && <span className="muted">loading…</span>}
        <span className="spacer" />
        <button
          className="icon"
          aria-label="Open in browser"
          title={embedded ? 'Open in the system browser' : 'Open in a new browser tab'}
          disabled={!forward || port === null}
          onClick={() => forward && act(() => openForward(forward))}
        >
          <ExternalLink size={14} aria-hidden="true" />
        </button>
        <PaneButtons
          envId={env.id}
          paneId={paneId}
          maximized={maximized}
          canMaximize={canMaximize}
          split={(direction) =>
            void openShell(env.id, { splitOf: { paneId, direction } }).catch(() => undefined)
          }
          splitTitle={(direction) => `Split ${direction === 'horizontal' ? 'right' : 'down'}: a shell`}
        />
        <ClosePaneButton envId={env.id} paneId={paneId} />
      </header>
      {forward && <ForwardBanner forward={forward} pageError={state?.error ?? null} />}
      <ErrorLine message={error} />
      {!forward ? (
        <Gone envId={env.id} port={content.port} act={act} />
      ) : port === null ? (
        <p className="muted preview-message">
          Port {content.port} is not bound here{forward.error ? `: ${forward.error}` : '.'}
        </p>
      ) : embedded ? (
        <PreviewView id={id} envId={env.id} port={port} onError={setError} />
      ) : (
        <div className="preview-message">
          <p className="muted">In a browser, Tether opens the page in a tab of its own.</p>
          <button onClick={() => act(() => openForward(forward))}>Open in a browser tab</button>
        </div>
      )}
    </section>
  );
}

/** Why the page may not answer: the forward's own state, or the view's last failed load. */
function ForwardBanner({ forward, pageError }: { forward: ForwardView; pageError: string | null }) {
  const why =
    forward.state === 'nothingListening'
      ? `nothing listens on port ${forward.port} on the host now`
      : forward.state === 'linkDown'
        ? 'the link to the environment is down; the page comes back with it'
        : null;
  if (!why && !pageError) return null;
  return (
    <div className="banner" role="status">
      {pageError ? `The page did not load (${pageError})` : 'The page may not answer'}
      {why ? `: ${why}.` : '.'}
    </div>
  );
}

function Gone({
  envId,
  port,
  act,
}: {
  envId: string;
  port: number;
  act: (fn: () => Promise<unknown>) => void;
}) {
  return (
    <div className="preview-message" role="status">
      <p>
        Port {port} is no longer forwarded: its forward was stopped, or the process that printed it ended.
      </p>
      <button onClick={() => act(() => addForward({ envId, port }))}>Forward port {port} again</button>
    </div>
  );
}

/**
 * The body the desktop app's view covers: it asks for the view, then keeps it on the body's place in
 * the window (checked every frame, so a moved split or a shown sidebar moves it too).
 */
function PreviewView({
  id,
  envId,
  port,
  onError,
}: {
  id: string;
  envId: string;
  port: number;
  onError: (message: string) => void;
}) {
  const body = useRef<HTMLDivElement>(null);
  const covered = useUi((s) => s.dialog !== null);
  useEffect(() => {
    invoke('preview.open', { id, envId, port }).then(
      (state) => usePreviews.getState().set(state),
      (e: unknown) => onError(errorMessage(e)),
    );
  }, [id, envId, port, onError]);
  useEffect(() => {
    let sent = '';
    let frame = 0;
    const place = (bounds: PreviewBounds | null) => {
      const key = JSON.stringify(bounds);
      if (key === sent) return;
      sent = key;
      invoke('preview.place', { id, bounds }).catch(() => undefined);
    };
    const track = () => {
      place(covered || !body.current ? null : boundsOf(body.current));
      frame = requestAnimationFrame(track);
    };
    track();
    return () => {
      cancelAnimationFrame(frame);
      invoke('preview.place', { id, bounds: null }).catch(() => undefined);
    };
  }, [id, port, covered]);
  return <div ref={body} className="preview-body" aria-label="Page" />;
}

/** The element's place in the window, or null when it takes no room (its tab is hidden). */
function boundsOf(element: HTMLElement): PreviewBounds | null {
  const r = element.getBoundingClientRect();
  const x = Math.max(0, Math.round(r.left));
  const y = Math.max(0, Math.round(r.top));
  const width = Math.round(r.right) - x;
  const height = Math.round(r.bottom) - y;
  return width >= 1 && height >= 1 ? { x, y, width, height } : null;
}
