// The terminal tab strip and panes as the user drives them (issue #14, Panes): rename in place,
// titles from the program (OSC 0/2), markers for output or an exit not yet seen, keyboard reorder,
// maximize/restore, and the sidebar's marker of an environment whose link is in trouble.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  act,
  cleanup,
  createEvent,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envPanes, leaves, processIdOf, terminalContent, usePanes } from '../panes/panes-store';
import { useEnvironments } from '../environments/environments-store';
import { useUi } from '../app/ui-store';
import { useActivity } from '../panes/activity-store';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withShellPane, utf8Bytes } from '../test/shell-pane';
import { App } from '../app/app';

let bridge: FakeBridge;
let stop: (() => void) | null = null;
/** What each process's replay returns, by process id. */
let replays: Record<string, string>;

beforeEach(async () => {
  replays = {};
  ({ bridge, stop } = await withShellPane({
    processes: [
      makeProcess({ processId: 'p1', title: 'bash' }),
      makeProcess({ processId: 'p2', title: 'top' }),
    ],
    settings: { scrollback: 5000, theme: 'light' },
    replay: (processId) => replays[processId] ?? '',
    handlers: (host) => host.handle('layout.save', () => ({ ok: true })),
  }));
});
afterEach(() => {
  stop?.();
  cleanup();
});

/** The terminal tab strip (the panel switcher's tabs are tabs too). */
const strip = () => within(screen.getByRole('tablist', { name: 'Terminal tabs' }));
const tabs = () => envPanes(usePanes.getState().byEnv, 'env-1').tabs;
const output = (processId: string, text: string) =>
  act(() =>
    bridge.emit('processes.events', [
      {
        envId: 'env-1',
        processId,
        events: [{ kind: 'output', seq: 2, stream: 'pty', data: utf8Bytes(text) }],
      },
    ]),
  );

describe('renaming a tab', () => {
  it('double-click names it, Enter keeps it (and saves the layout), Escape cancels, empty clears', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.dblClick(strip().getByRole('tab', { name: /^1: bash/ }));
    const field = screen.getByRole('textbox', { name: 'Tab name' });
    await user.clear(field);
    await user.type(field, 'build logs{Enter}');
    expect(document.activeElement).toBe(strip().getByRole('tab', { name: /^1: build logs/ }));
    expect(bridge.callsOf('layout.save').at(-1)!.byEnv['env-1']!.tabs[0]!.name).toBe('build logs');

    // Quick open knows the tab by the same name.
    await user.keyboard('{Control>}p{/Control}');
    expect(screen.getByRole('option', { name: /^1: build logs/ })).toBeTruthy();
    await user.keyboard('{Escape}');
    strip()
      .getByRole('tab', { name: /^1: build logs/ })
      .focus();
    await user.keyboard('{F2}');
    await user.type(screen.getByRole('textbox', { name: 'Tab name' }), ' later{Escape}');
    expect(
      strip()
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['1: build logs', '2: top']);

    fireEvent.contextMenu(strip().getByRole('tab', { name: /^1: build logs/ }), { clientX: 5, clientY: 5 });
    await user.click(screen.getByRole('menuitem', { name: /Rename/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Tab name' }));
    await user.keyboard('{Enter}');
    expect(strip().getByRole('tab', { name: /^1: bash/ })).toBeTruthy();
    expect(tabs()[0]).not.toHaveProperty('name');
  });

  it("takes the program's title (OSC 0), and a user name wins over it until cleared", async () => {
    const user = userEvent.setup();
    // A title with a direction override and a run of spaces: shown cleaned.
    replays.p2 = '\x1b]0;htop\u202e on  box\x07$ ';
    render(<App />);
    await waitFor(() => expect(strip().getByRole('tab', { name: /^2: htop on box/ })).toBeTruthy());
    fireEvent.contextMenu(strip().getByRole('tab', { name: /^2: htop/ }), { clientX: 5, clientY: 5 });
    await user.click(screen.getByRole('menuitem', { name: /Rename/ }));
    await user.type(screen.getByRole('textbox', { name: 'Tab name' }), 'monitor{Enter}', {
      initialSelectionStart: 0,
      initialSelectionEnd: 999,
    });
    expect(strip().getByRole('tab', { name: /^2: monitor/ })).toBeTruthy();
    fireEvent.contextMenu(strip().getByRole('tab', { name: /^2: monitor/ }), { clientX: 5, clientY: 5 });
    await user.click(screen.getByRole('menuitem', { name: "Use the program's title" }));
    expect(strip().getByRole('tab', { name: /^2: htop/ })).toBeTruthy();
  });
});

describe('activity markers', () => {
  it('mark a hidden tab with new output until it is shown, and an ended process distinctly', async () => {
    const user = userEvent.setup();
    render(<App />);
    const tab1 = () => strip().getByRole('tab', { name: /1: bash/ });
    // Output in the tab on screen marks nothing.
    output('p2', 'visible\r\n');
    expect(screen.queryByRole('img', { name: 'new output' })).toBeNull();

    output('p1', 'while away\r\n');
    await waitFor(() => expect(within(tab1()).getByRole('img', { name: 'new output' })).toBeTruthy());
    await user.click(tab1());
    expect(screen.queryByRole('img', { name: 'new output' })).toBeNull();

    // Now p2's tab is hidden: its process ends unseen.
    act(() =>
      bridge.emit(
        'processes.changed',
        makeProcess({ processId: 'p2', title: 'top', state: 'exited', exitCode: 0 }),
      ),
    );
    const tab2 = strip().getByRole('tab', { name: /2: top/ });
    expect(within(tab2).getByRole('img', { name: 'process ended' })).toBeTruthy();
    expect(within(tab2).queryByRole('img', { name: 'new output' })).toBeNull();
    // Another panel hides the tabs too; coming back shows (and so clears) the active one.
    act(() => useUi.getState().showPanel('env-1', 'files'));
    output('p1', 'more\r\n');
    expect(Object.values(useActivity.getState().unseenByKey)).toEqual(['exited', 'output']);
    act(() => useUi.getState().showPanel('env-1', 'terminals'));
    expect(screen.queryByRole('img', { name: 'new output' })).toBeNull();
    await user.click(strip().getByRole('tab', { name: /2: top/ }));
    expect(screen.queryByRole('img', { name: 'process ended' })).toBeNull();
  });
});

describe("a shell's commands (shell integration)", () => {
  it('the tab shows the running command, then a badge while the last one failed', async () => {
    render(<App />);
    const command = (patch: object) => ({
      line: 'make test',
      cwd: '/src',
      startedAt: 1,
      endedAt: null,
      exitCode: null,
      ...patch,
    });
    const change = (commands: object[]) =>
      act(() =>
        bridge.emit('processes.changed', makeProcess({ processId: 'p1', title: 'bash', commands } as never)),
      );
    const tab1 = () => strip().getByRole('tab', { name: /1: bash/ });
    await waitFor(() => tab1());
    change([command({})]);
    expect(within(tab1()).getByTitle('Running: make test').textContent).toBe('make test');
    change([command({ endedAt: 5, exitCode: 2 })]);
    expect(within(tab1()).getByRole('img', { name: 'last command failed (exit 2)' }).textContent).toBe('2');
    expect(within(tab1()).queryByTitle('Running: make test')).toBeNull();
    change([command({ endedAt: 5, exitCode: 2 }), command({ startedAt: 6, endedAt: 7, exitCode: 0 })]);
    expect(within(tab1()).queryByRole('img', { name: /failed/ })).toBeNull();
  });
});

describe('arranging tabs and panes', () => {
  it('moves the active tab with Ctrl+Shift+PageUp/PageDown', async () => {
    const user = userEvent.setup();
    render(<App />);
    const order = () => tabs().map((t) => processIdOf(leaves(t.root)[0]!));
    await user.keyboard('{Control>}{Shift>}{PageUp}{/Shift}{/Control}');
    expect(order()).toEqual(['p2', 'p1']);
    expect(strip().getAllByRole('tab')[0]!.textContent).toContain('1: top');
    await user.keyboard('{Control>}{Shift>}{PageDown}{/Shift}{/Control}');
    expect(order()).toEqual(['p1', 'p2']);
  });

  it('drops a dragged tab before or after the tab it is dropped on', () => {
    usePanes.getState().openTab('env-1', terminalContent('p3'));
    render(<App />);
    const order = () => tabs().map((t) => processIdOf(leaves(t.root)[0]!));
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      get types() {
        return [...data.keys()];
      },
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    /** Drags tab `from` onto tab `onto`, left of its middle ('before') or right of it. */
    const drag = (from: number, onto: number, side: 'before' | 'after') => {
      const all = strip().getAllByRole('tab');
      // jsdom lays nothing out (every box is 0 wide at 0), and its drag events carry no
      // pointer: x −1 is left of a middle, x 1 right of it.
      const at = (event: Event) =>
        Object.defineProperty(event, 'clientX', { value: side === 'before' ? -1 : 1 });
      fireEvent.dragStart(all[from]!, { dataTransfer });
      fireEvent(all[onto]!, at(createEvent.dragOver(all[onto]!, { dataTransfer })));
      fireEvent(all[onto]!, at(createEvent.drop(all[onto]!, { dataTransfer })));
      fireEvent.dragEnd(all[from]!, { dataTransfer });
      data.clear();
    };
    drag(0, 1, 'after');
    expect(order()).toEqual(['p2', 'p1', 'p3']);
    drag(2, 0, 'before');
    expect(order()).toEqual(['p3', 'p2', 'p1']);
    drag(0, 1, 'before'); // onto its own place: nothing moves
    expect(order()).toEqual(['p3', 'p2', 'p1']);
  });

  it('maximizes a pane from its header and restores it with the same button, the shortcut or Escape', async () => {
    const user = userEvent.setup();
    const tab = tabs()[1]!;
    usePanes.getState().split('env-1', tab.focusedPaneId, 'horizontal', terminalContent('p1'));
    render(<App />);
    const panes = () => document.querySelectorAll('section.pane');
    expect(panes()).toHaveLength(2);
    const [first] = screen.getAllByRole('button', { name: 'Maximize pane' });
    await user.click(first!);
    expect(panes()).toHaveLength(1);
    expect(screen.getByText('1 more hidden')).toBeTruthy();
    const restore = screen.getByRole('button', { name: 'Restore panes' });
    expect(restore.getAttribute('aria-pressed')).toBe('true');
    restore.focus();
    await user.keyboard('{Escape}');
    expect(panes()).toHaveLength(2);

    await user.keyboard('{Control>}{Shift>}{Enter}{/Shift}{/Control}');
    expect(panes()).toHaveLength(1);
    await user.keyboard('{Control>}{Shift>}{Enter}{/Shift}{/Control}');
    expect(panes()).toHaveLength(2);
  });
});

describe('the sidebar', () => {
  it('marks an environment whose link failed or is reconnecting, by name and shape', () => {
    render(<App />);
    const item = () => screen.getByRole('button', { name: /^Environment Build box Connection:/ });
    expect(within(item()).queryByRole('img', { name: /^Link/, hidden: true })).toBeNull();
    act(() =>
      useEnvironments.getState().upsert(makeEnv({ link: { kind: 'failed', since: 1, reason: 'refused' } })),
    );
    const failed = within(item()).getByRole('img', { name: 'Link failed', hidden: true });
    expect(failed.classList.contains('link-alert-failed')).toBe(true);
    expect(item().getAttribute('aria-describedby')).toBe(failed.id);
    act(() =>
      useEnvironments
        .getState()
        .upsert(makeEnv({ link: { kind: 'reconnecting', since: 1, attempt: 2, nextRetryAt: null } })),
    );
    expect(
      within(item())
        .getByRole('img', { name: 'Link down, reconnecting', hidden: true })
        .classList.contains('link-alert-reconnecting'),
    ).toBe(true);
  });
});
