// The format of layout.json: the renderer's PaneLayout under a format version. Version 1 (a file
// with no `version`, from Tether before pane kinds) named a process in every leaf; it is read by
// turning each leaf's processId into terminal content. A file from a newer Tether, or one that is
// no layout at all, reads as no layout, as a missing file does: the app starts with no panes and
// the next save writes this version.
import { MAX_PANE_DEPTH, PANE_LAYOUT_VERSION, PaneLayout } from '../../../shared/ipc';

export function encodeLayoutFile(layout: PaneLayout): string {
  return JSON.stringify({ version: PANE_LAYOUT_VERSION, ...layout }) + '\n';
}

/** The layout in a parsed layout.json, migrated to this version; null if it cannot be used. */
export function decodeLayoutFile(json: unknown): PaneLayout | null {
  if (!isRecord(json)) return null;
  const version = json.version ?? 1;
  const migrated = version === 1 ? fromVersion1(json) : version === PANE_LAYOUT_VERSION ? json : null;
  if (migrated === null) return null;
  // Validated after the migration, so a migrated file meets every bound a current one does.
  const parsed = PaneLayout.safeParse(migrated);
  return parsed.success ? parsed.data : null;
}

function fromVersion1(file: Record<string, unknown>): unknown {
  if (!isRecord(file.byEnv)) return file;
  const byEnv: Record<string, unknown> = {};
  for (const [envId, env] of Object.entries(file.byEnv)) {
    byEnv[envId] =
      isRecord(env) && Array.isArray(env.tabs)
        ? {
            ...env,
            tabs: env.tabs.map((tab) => (isRecord(tab) ? { ...tab, root: leafToContent(tab.root, 1) } : tab)),
          }
        : env;
  }
  return { byEnv };
}

/** A version-1 leaf `{type:'leaf', id, processId}` becomes `{type:'leaf', id, content}`. */
function leafToContent(node: unknown, depth: number): unknown {
  // Deeper than any valid tree: left as it is, for the validation to refuse.
  if (!isRecord(node) || depth > MAX_PANE_DEPTH) return node;
  if (node.type === 'leaf') {
    const { processId, ...rest } = node;
    return { ...rest, content: { kind: 'terminal', processId } };
  }
  if (node.type === 'split' && Array.isArray(node.children))
    return { ...node, children: node.children.map((child) => leafToContent(child, depth + 1)) };
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
