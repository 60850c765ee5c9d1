// layout.json across versions: a file written before tabs had names or a maximized pane still
// loads, the newer fields survive a write and a fresh read, and a file that breaks the bounds counts
// as no layout.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LayoutStore } from '../../../../electron/app/persistence/layout-store';
import { MAX_TAB_TITLE_CHARS, type PaneLayout, type PaneNode } from '../../../../shared/ipc';

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
    { type: 'leaf', id: 'pane-1', processId: 'p1' },
    { type: 'leaf', id: 'pane-2', processId: 'p2' },
  ],
};

describe('LayoutStore', () => {
  it('reads a layout.json from before tab names and maximized panes', async () => {
    const old = {
      byEnv: { local: { tabs: [{ id: 't1', root: split, focusedPaneId: 'pane-2' }], activeTabId: 't1' } },
    };
    writeFileSync(path.join(dir, 'layout.json'), JSON.stringify(old));
    expect(await new LayoutStore(dir).get()).toEqual(old);
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
    expect(JSON.parse(readFileSync(path.join(dir, 'layout.json'), 'utf8'))).toEqual(layout);
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
