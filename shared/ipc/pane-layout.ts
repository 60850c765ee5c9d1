// The pane layout the renderer shows (tabs and split panes per environment, each pane holding one
// piece of content: a process's terminal, a file's editor, a forwarded port's page), as the app host
// keeps it across restarts. The renderer owns it while it runs; the host only stores the last one it
// was sent. Bounded so a stored layout stays small. Optional fields added later need no migration; a change
// of shape bumps PANE_LAYOUT_VERSION and gets one in electron/app/persistence/layout-file.ts.
import { z } from 'zod';

const MAX_TABS_PER_ENVIRONMENT = 100;
const MAX_ENVIRONMENTS = 200;
/** Splits nested deeper than this are refused (a tab holds at most 2^depth panes). */
export const MAX_PANE_DEPTH = 8;
/** A tab name the user typed, or a title a program set, is cut to this many characters. */
export const MAX_TAB_TITLE_CHARS = 120;

/** The shape of layout.json this build writes (1: a leaf held a bare processId). */
export const PANE_LAYOUT_VERSION = 2;

const Id = z.string().min(1).max(200);

/** What one pane shows; `kind` picks the renderer's pane kind (renderer/components/pane-kinds.tsx). */
export const PaneContent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('terminal'), processId: Id }),
  z.object({ kind: z.literal('editor'), environmentId: Id, path: z.string().min(1).max(4096) }),
  /**
   * A forwarded port's page (renderer/forwarding/preview-pane.tsx): the forward it follows, and the
   * host's port, so a pane whose forward is gone (an auto forward after a restart) can say which it
   * was and finds the next forward of that port.
   */
  z.object({ kind: z.literal('preview'), forwardId: Id, port: z.number().int().min(1).max(65535) }),
]);
export type PaneContent = z.infer<typeof PaneContent>;
export type PaneKindName = PaneContent['kind'];

export interface PaneLeaf {
  type: 'leaf';
  id: string;
  content: PaneContent;
}

export type PaneNode =
  | PaneLeaf
  | { type: 'split'; id: string; direction: 'horizontal' | 'vertical'; children: [PaneNode, PaneNode] };

export const PaneNode: z.ZodType<PaneNode, PaneNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('leaf'), id: Id, content: PaneContent }),
    z.object({
      type: z.literal('split'),
      id: Id,
      direction: z.enum(['horizontal', 'vertical']),
      children: z.tuple([PaneNode, PaneNode]),
    }),
  ]),
);

function depthOf(node: PaneNode): number {
  return node.type === 'leaf' ? 1 : 1 + Math.max(depthOf(node.children[0]), depthOf(node.children[1]));
}

export const Tab = z.object({
  id: Id,
  root: PaneNode.refine((root) => depthOf(root) <= MAX_PANE_DEPTH, 'panes are split too deeply'),
  focusedPaneId: Id,
  /** The name the user gave the tab; it wins over the program's title until cleared. */
  name: z.string().min(1).max(MAX_TAB_TITLE_CHARS).optional(),
  /** The one pane shown while the tab is maximized; the others keep running, hidden. */
  maximizedPaneId: Id.optional(),
});
export type Tab = z.infer<typeof Tab>;

export const EnvPanes = z.object({
  tabs: z.array(Tab).max(MAX_TABS_PER_ENVIRONMENT),
  activeTabId: Id.nullable(),
});
export type EnvPanes = z.infer<typeof EnvPanes>;

export const PaneLayout = z.object({
  byEnv: z
    .record(z.string().min(1).max(100), EnvPanes)
    .refine((byEnv) => Object.keys(byEnv).length <= MAX_ENVIRONMENTS, 'too many environments'),
});
export type PaneLayout = z.infer<typeof PaneLayout>;
