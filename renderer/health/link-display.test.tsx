// How a link's trouble is shown (issue #14, defects 5 and 6): one clock for every place showing it,
// no stale "RTT now" while down, one timeline row per outage, and a failure said once in full.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { useEnvironments } from '../environments/environments-store';
import { useHostContact } from '../app/host-contact-store';
import { makeEnv } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';
import { HealthPanel } from './health-panel';
import { StatusIndicator } from './status-indicator';

beforeEach(() => {
  withTwoEnvironments();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the link status clock', () => {
  it('is one for the window: indicators mounted at different moments show the same countdown', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const env = makeEnv({
      link: { kind: 'reconnecting', since: 0, attempt: 2, nextRetryAt: 1_000_000 + 9_000 },
    });
    const first = render(<StatusIndicator env={env} />);
    act(() => vi.advanceTimersByTime(500));
    const second = render(<StatusIndicator env={env} />);
    for (let step = 0; step < 6; step += 1) {
      act(() => vi.advanceTimersByTime(300));
      expect(second.container.textContent).toBe(first.container.textContent);
    }
  });
});

describe('the Health panel while the link is down', () => {
  const base = makeEnv();
  const down = makeEnv({
    link: { kind: 'reconnecting', since: 10_000, attempt: 3, nextRetryAt: null },
    health: {
      ...base.health!,
      lastRttMs: 42,
      history: [
        { at: 1_000, state: 'connected' },
        { at: 10_000, state: 'reconnecting', reason: 'socket closed' },
        { at: 10_250, state: 'reconnecting', reason: 'connect ECONNREFUSED' },
        { at: 10_500, state: 'reconnecting', reason: 'connect ECONNREFUSED' },
      ],
    },
  });

  it('shows no RTT "now" (the last sample is from before the drop)', () => {
    render(<HealthPanel env={down} />);
    const stat = screen.getByText('RTT now').parentElement!;
    expect(stat.textContent).not.toContain('42');
    expect(stat.textContent).toContain('—');
  });

  it('folds the attempts of one outage into one timeline row', () => {
    render(<HealthPanel env={down} />);
    const rows = within(screen.getByRole('region', { name: 'Timeline' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toMatch(/reconnecting ×3 .*connect ECONNREFUSED/);
    expect(rows[1]!.textContent).toMatch(/connected/);
  });
});

describe('a failed link', () => {
  const reason =
    'The server no longer holds session 5b0e6f1c-0a57-4c59-9a39-0e0f3c9d1b11.\n' +
    'Its processes could not be resumed.\nReconnect to start a new session.';

  it('is explained once in full, in the environment view, and in one short line elsewhere', () => {
    useEnvironments.getState().upsert(makeEnv({ link: { kind: 'failed', since: 0, reason } }));
    render(<App />);
    const full = screen.getAllByText(
      (_, el) => el?.children.length === 0 && !!el.textContent?.includes(reason),
    );
    expect(full).toHaveLength(1);
    expect(screen.getByRole('alert', { name: 'Link failure' }).textContent).toContain(reason);
    const card = screen.getByRole('button', { name: /^Environment Build box Connection:/ });
    expect(card.textContent).toContain('failed: The server no longer holds session');
    expect(card.textContent).not.toContain('Reconnect to start');
    expect(document.body.textContent?.split('Reconnect to start a new session').length).toBe(2);
  });
});

describe('while the page has lost contact with its host', () => {
  afterEach(() => useHostContact.getState().setLost(false));

  it('shows every link as unknown, with no failure or alert left over from before, and a banner', () => {
    useEnvironments
      .getState()
      .upsert(makeEnv({ link: { kind: 'failed', since: 0, reason: 'token rejected' } }));
    render(<App />);
    expect(screen.getAllByRole('img', { name: 'Link failed', hidden: true }).length).toBeGreaterThan(0);
    act(() => useHostContact.getState().setLost(true));
    expect(screen.getByRole('alert').textContent).toContain('Lost contact with Tether');
    expect(screen.queryByRole('alert', { name: 'Link failure' })).toBeNull();
    expect(screen.queryAllByRole('img', { name: 'Link failed', hidden: true })).toHaveLength(0);
    const statuses = screen.getAllByRole('img', { name: /^Connection: / });
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) {
      expect(status.getAttribute('aria-label')).toBe('Connection: unknown (lost contact with Tether)');
    }
    act(() => useHostContact.getState().setLost(false));
    expect(screen.queryByText('Lost contact with Tether')).toBeNull();
    expect(screen.getAllByRole('img', { name: 'Link failed', hidden: true }).length).toBeGreaterThan(0);
  });
});
