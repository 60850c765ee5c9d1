// layout.json across versions: a version-1 file (from before pane kinds, tab names and maximized
// panes) loads migrated, the newer fields and pane kinds survive a write and a fresh read, and a
// file from a newer Tether, one that is not a layout or one that breaks the bounds counts as no
// layout.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LayoutStore } from '../../../../electron/app/persistence/layout-store';
import {
  MAX_TAB_TITLE_CHARS,
  PANE_LAYOUT_VERSION,
  type PaneLayout,
  type PaneNode,
} from '../../../../shared/ipc';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-layout-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const split: PaneNode = {
  type: 'split',
  id: 's1',
  direction: 'horizontal',
  children: [
    { type: 'leaf', id: 'pane-1', content: { kind: 'terminal', processId: 'p1' } },
    { type: 'leaf', id: 'pane-2', content: { kind: 'terminal', processId: 'p2' } },
  ],
};

describe('LayoutStore', () => {
  it('reads a version-1 layout.json (no version, a processId in every leaf) as terminal content', async () => {
    // Written by Tether before pane kinds and before tab names or maximized panes, byte for byte.
    const old =
      '{"byEnv":{"local":{"tabs":[{"id":"t1","root":{"type":"split","id":"s1","direction":"horizontal",' +
      '"children":[{"type":"leaf","id":"pane-1","processId":"p1"},{"type":"leaf","id":"pane-2","processId":"p2"}]},' +
      '"focusedPaneId":"pane-2"}],"activeTabId":"t1"},"ssh-1":{"tabs":[],"activeTabId":null}}}\n';
    writeFileSync(path.join(dir, 'layout.json'), old);
    const migrated: PaneLayout = {
      byEnv: {
        local: { tabs: [{ id: 't1', root: split, focusedPaneId: 'pane-2' }], activeTabId: 't1' },
        'ssh-1': { tabs: [], activeTabId: null },
      },
    };
    const store = new LayoutStore(dir);
    expect(await store.get()).toEqual(migrated);
    // The next save writes the current version.
    await store.save(migrated);
    expect(JSON.parse(readFileSync(path.join(dir, 'layout.json'), 'utf8'))).toEqual({
      version: PANE_LAYOUT_VERSION,
      ...migrated,
    });
  });

  it('holds terminal, editor and preview panes side by side across a write and a new start', async () => {
    const editor: PaneNode = {
      type: 'leaf',
      id: 'pane-3',
      content: { kind: 'editor', environmentId: 'local', path: '/home/me/notes.md' },
    };
    const preview: PaneNode = {
      type: 'leaf',
      id: 'pane-4',
      content: { kind: 'preview', forwardId: 'auto-5173', port: 5173 },
    };
    const layout: PaneLayout = {
      byEnv: {
        local: {
          tabs: [
            { id: 't1', root: { ...split, children: [split, editor] }, focusedPaneId: 'pane-3' },
            { id: 't2', root: editor, focusedPaneId: 'pane-3' },
            { id: 't3', root: preview, focusedPaneId: 'pane-4' },
          ],
          activeTabId: 't2',
        },
      },
    };
    await new LayoutStore(dir).save(layout);
    expect(await new LayoutStore(dir).get()).toEqual(layout);
  });

  it('counts a file from a newer Tether, or one that is no layout, as no layout', async () => {
    const current = JSON.stringify({ version: PANE_LAYOUT_VERSION, byEnv: {} });
    for (const text of [
      JSON.stringify({ version: PANE_LAYOUT_VERSION + 1, byEnv: {} }),
      JSON.stringify({ version: 'two', byEnv: {} }),
      // A version-1 leaf under the current version is not migrated again.
      JSON.stringify({
        version: PANE_LAYOUT_VERSION,
        byEnv: {
          local: {
            tabs: [{ id: 't', root: { type: 'leaf', id: 'p', processId: 'p1' }, focusedPaneId: 'p' }],
            activeTabId: 't',
          },
        },
      }),
      'null',
      '[]',
      '42',
      '{"byEnv":{"local":{"tabs":[{"id":"t","root":{"type":"leaf","id":"p"},"focusedPaneId":"p"}],"activeTabId":"t"}}}',
      '{"byEnv": {"local": {"tabs": [',
      '',
    ]) {
      writeFileSync(path.join(dir, 'layout.json'), text);
      expect(await new LayoutStore(dir).get(), text).toBeNull();
    }
    // The same store reads the current version, so the nulls above are the files', not the store's.
    writeFileSync(path.join(dir, 'layout.json'), current);
    expect(await new LayoutStore(dir).get()).toEqual({ byEnv: {} });
  });

  it("keeps a tab's name and its maximized pane across a write and a new start", async () => {
    const layout: PaneLayout = {
      byEnv: {
        local: {
          tabs: [
            { id: 't1', root: split, focusedPaneId: 'pane-1', name: 'build', maximizedPaneId: 'pane-1' },
          ],
          activeTabId: 't1',
        },
      },
    };
    await new LayoutStore(dir).save(layout);
    expect(JSON.parse(readFileSync(path.join(dir, 'layout.json'), 'utf8'))).toEqual({
      version: PANE_LAYOUT_VERSION,
      ...layout,
    });
    expect(await new LayoutStore(dir).get()).toEqual(layout);
  });

  it('counts a file with an over-long tab name as no layout', async () => {
    const bad = {
      byEnv: {
        local: {
          tabs: [
            { id: 't1', root: split, focusedPaneId: 'pane-1', name: 'x'.repeat(MAX_TAB_TITLE_CHARS + 1) },
          ],
          activeTabId: 't1',
        },
      },
    };
    writeFileSync(path.join(dir, 'layout.json'), JSON.stringify(bad));
    expect(await new LayoutStore(dir).get()).toBeNull();
  });
});
