// The pane kinds: for each kind of pane content (shared/ipc/pane-layout.ts), how its pane is drawn,
// what it calls the tab it is focused in, and what it holds while shown and frees once no pane
// shows it. pane-layout.tsx draws every leaf through this table and start-app.ts hands every
// layout change to retainShownContent, so a new kind is one entry here and one component.
import { useEffect, useReducer, useRef, type ComponentType } from 'react';

import type { EnvironmentView, PaneContent, PaneKindName } from '../../shared/ipc';
import { closeEditorsNotShown, openDocument } from '../editor/editor-actions';
import { EditorClosePrompt } from '../editor/editor-close-prompt';
import { openShell } from '../processes/process-actions';
import { parentPath } from '../files/files-store';
import { PaneButtons } from './pane-buttons';
import { PANE_ID_ATTRIBUTE } from './pane-actions';
import { useEditors } from '../editor/editors-store';
import { leaves, usePanes, type EnvPanes } from './panes-store';
import { processKeyString } from '../processes/process-key';
import { useProcesses } from '../processes/processes-store';
import { useProgramTitles } from '../terminals/program-titles-store';
import { tabTitle } from '../terminals/tab-title';
import { retainOnly as retainTerminals } from '../terminals/xterm/terminal-registry';
import { EditorPane } from '../editor/editor-pane';
import { TerminalPane } from '../terminals/terminal-pane';
import { PreviewPane, previewTitle } from '../forwarding/preview-pane';
import { retainPreviews } from '../forwarding/preview-actions';
import { usePreviews } from '../forwarding/previews-store';
import '../editor/editor.css';

type ContentOf<K extends PaneKindName> = Extract<PaneContent, { kind: K }>;

/** What every pane is told about its place in the tab. */
export interface PaneProps<C extends PaneContent = PaneContent> {
  env: EnvironmentView;
  paneId: string;
  content: C;
  focused: boolean;
  /** How many panes of the tab this one, maximized, hides (0 when not maximized). */
  hiddenPanes: number;
  /** The tab has other panes, so this one can be maximized. */
  canMaximize: boolean;
}

interface Subscribable {
  subscribe: (listener: () => void) => () => void;
}

export interface PaneKind<C extends PaneContent> {
  Pane: ComponentType<PaneProps<C>>;
  /** The tab's title while this pane is its focused one (a name the user gave wins over it). */
  title: (envId: string, content: C) => string;
  /** The stores `title` reads, so a shown title follows them. */
  titleStores: Subscribable[];
  /**
   * Called after every layout change with this kind's content in every pane of every environment:
   * frees whatever it holds for content no pane shows any more.
   */
  retainOnly: (shown: { envId: string; content: C }[]) => void;
}

const terminal: PaneKind<ContentOf<'terminal'>> = {
  Pane: TerminalKindPane,
  title: (envId, { processId }) => {
    const key = processKeyString({ envId, processId });
    return tabTitle({
      programTitle: useProgramTitles.getState().byKey[key],
      commandTitle: useProcesses.getState().byKey[key]?.title,
    });
  },
  titleStores: [useProcesses, useProgramTitles],
  // A terminal (its xterm and its output) lives as long as some pane shows its process.
  retainOnly: (shown) =>
    retainTerminals(new Set(shown.map(({ envId, content }) => processKeyString({ envId, ...content })))),
};

const editor: PaneKind<ContentOf<'editor'>> = {
  Pane: EditorKindPane,
  title: (_envId, { path }) => path.split('/').filter(Boolean).pop() ?? path,
  titleStores: [],
  // A document lives as long as its pane: closing the pane (asked first while it has unsaved
  // changes, see pane-actions.ts) or its tab closes the file.
  retainOnly: (shown) => closeEditorsNotShown(shown.map((s) => s.content)),
};

const preview: PaneKind<ContentOf<'preview'>> = {
  Pane: PreviewPane,
  title: previewTitle,
  titleStores: [usePreviews],
  // A preview's view (desktop app) lives as long as some pane shows it; closing it drops its history.
  retainOnly: retainPreviews,
};

export const PANE_KINDS: { [K in PaneKindName]: PaneKind<ContentOf<K>> } = { terminal, editor, preview };

/** The kind entry for `content`, typed for it (the table is keyed by kind, so this always holds). */
function kindOf<C extends PaneContent>(content: C): PaneKind<C> {
  return PANE_KINDS[content.kind] as unknown as PaneKind<C>;
}

export function PaneView(props: PaneProps) {
  const { Pane } = kindOf(props.content);
  return <Pane {...props} />;
}

export function paneTitle(envId: string, content: PaneContent): string {
  return kindOf(content).title(envId, content);
}

/** Subscribes to every store any kind's title reads. */
export function subscribeToTitles(listener: () => void): () => void {
  const offs = Object.values(PANE_KINDS).flatMap((kind) =>
    kind.titleStores.map((s) => s.subscribe(listener)),
  );
  return () => offs.forEach((off) => off());
}

/** Renders the caller again whenever a store some title reads changes (for a list of titles). */
export function useTitleChanges(): void {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => subscribeToTitles(rerender), []);
}

/** Hands each kind the content of every pane still shown, so it frees what none shows. */
export function retainShownContent(byEnv: Record<string, EnvPanes>): void {
  const shown: { [K in PaneKindName]: { envId: string; content: ContentOf<K> }[] } = {
    terminal: [],
    editor: [],
    preview: [],
  };
  for (const [envId, env] of Object.entries(byEnv))
    for (const tab of env.tabs)
      for (const { content } of leaves(tab.root))
        (shown[content.kind] as { envId: string; content: PaneContent }[]).push({ envId, content });
  for (const kind of Object.keys(PANE_KINDS) as PaneKindName[])
    (PANE_KINDS[kind] as PaneKind<PaneContent>).retainOnly(shown[kind]);
}

function TerminalKindPane({ content, ...props }: PaneProps<ContentOf<'terminal'>>) {
  const process = useProcesses(
    (s) => s.byKey[processKeyString({ envId: props.env.id, processId: content.processId })],
  );
  return <TerminalPane {...props} processId={content.processId} process={process} />;
}

/**
 * A file's editor in a pane: the open document with Save, Ctrl+S and the close question, plus the
 * pane's own controls (split beside it with a shell in the file's folder, maximize). A pane
 * restored with the layout reads its file when it first shows.
 */
function EditorKindPane({
  env,
  paneId,
  content,
  focused,
  hiddenPanes,
  canMaximize,
}: PaneProps<ContentOf<'editor'>>) {
  const tab = useEditors((s) =>
    s.tabs.find((t) => t.envId === content.environmentId && t.path === content.path),
  );
  const openedAtMount = useRef(tab !== undefined);
  useEffect(() => {
    // Only at mount: a document that closes takes its pane with it, and must not be read again.
    if (!openedAtMount.current) void openDocument(content.environmentId, content.path);
  }, [content.environmentId, content.path]);
  const { focusPane } = usePanes.getState();
  const maximized = hiddenPanes > 0;
  const name = editor.title(env.id, content);
  const split = (direction: 'horizontal' | 'vertical') =>
    void openShell(env.id, { cwd: parentPath(content.path), splitOf: { paneId, direction } }).catch(
      () => undefined,
    );
  const controls = (
    <PaneButtons
      envId={env.id}
      paneId={paneId}
      maximized={maximized}
      canMaximize={canMaximize}
      split={split}
      splitTitle={(direction) =>
        `Split ${direction === 'horizontal' ? 'right' : 'down'}: a shell in this folder`
      }
    />
  );
  return (
    <section
      className={`pane editor-kind${focused ? ' focused' : ''}${maximized ? ' maximized' : ''}`}
      aria-label={`Editor ${name}`}
      {...{ [PANE_ID_ATTRIBUTE]: paneId }}
      onMouseDown={() => focusPane(env.id, paneId)}
      onFocus={() => focusPane(env.id, paneId)}
    >
      {tab ? (
        <>
          <EditorPane tab={tab} controls={controls} />
          {tab.closing && <EditorClosePrompt tab={tab} />}
        </>
      ) : (
        <p className="muted editor-message">Opening {content.path}…</p>
      )}
    </section>
  );
}
