// A stalled link (connected, but no reply for seconds) says when the client gives it up by itself,
// offers *Reconnect now* where a down link does (the environment header, the sidebar's menu) when
// a new link can take its session over, and its start and end are rows of the Health timeline.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvironmentView as Env } from '../../shared/ipc';
import { useEnvironments } from '../environments/environments-store';
import { EnvironmentView } from '../environments/environment-view';
import { Sidebar } from '../app/sidebar';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { HealthPanel } from './health-panel';

const NOW = 1_000_000;

let bridge: FakeBridge;
beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  bridge = withFreshBridge();
  bridge.handle('environments.reconnectNow', () => ({ ok: true }));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Connected, silent for 9 s; the client gives it up in 6 s unless `replaceable` is false (stdio). */
function stalledEnv(replaceable = true): Env {
  const base = makeEnv();
  return makeEnv({
    health: {
      ...base.health!,
      lastContactAt: NOW - 9_000,
      stalled: true,
      stallReconnectAt: replaceable ? NOW + 6_000 : null,
      history: [
        { at: NOW - 60_000, state: 'connected' },
        { at: NOW - 5_000, state: 'stalled', reason: 'no reply for 4 s' },
      ],
    },
  });
}

describe('a stalled link', () => {
  it('says when it reconnects by itself and offers Reconnect now in the environment header', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const env = stalledEnv();
    useEnvironments.getState().setAll([env]);
    render(<EnvironmentView env={env} />);
    expect(
      screen.getAllByRole('img', { name: 'Connection: stalled, no reply for 9 s · reconnecting in 6 s' }),
    ).not.toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Reconnect now' }));
    await waitFor(() => expect(bridge.callsOf('environments.reconnectNow')).toEqual([{ id: 'env-1' }]));
  });

  it('offers Reconnect now in the sidebar menu', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    useEnvironments.getState().setAll([stalledEnv()]);
    render(<Sidebar />);
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Build box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    const item = screen.getByRole('menuitem', { name: 'Reconnect now' });
    expect((item as HTMLButtonElement).disabled).toBe(false);
    await user.click(item);
    await waitFor(() => expect(bridge.callsOf('environments.reconnectNow')).toEqual([{ id: 'env-1' }]));
  });

  it('offers nothing when a new link could not take its session over (a stdio server)', () => {
    const env = stalledEnv(false);
    useEnvironments.getState().setAll([env]);
    render(<EnvironmentView env={env} />);
    expect(screen.getAllByRole('img', { name: 'Connection: stalled, no reply for 9 s' })).not.toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Reconnect now' })).toBeNull();
  });

  it('is a row of the Health timeline, and so is its end', () => {
    const env = stalledEnv();
    const ended = makeEnv({
      health: {
        ...env.health!,
        stalled: false,
        stallReconnectAt: null,
        history: [
          ...env.health!.history,
          { at: NOW - 1_000, state: 'connected', reason: 'replies again after 8 s of silence' },
        ],
      },
    });
    render(<HealthPanel env={ended} />);
    const rows = within(screen.getByRole('region', { name: 'Timeline' }))
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/connected — replies again after 8 s of silence$/);
    expect(rows[1]).toMatch(/stalled — no reply for 4 s$/);
  });
});
