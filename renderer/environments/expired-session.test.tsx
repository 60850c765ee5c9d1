// The expired state in the environment view: when the session expired, the processes that ended
// with it (and only those), and "Start a new session" asking the host to reconnect.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useProcesses } from '../processes/processes-store';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { EnvironmentView } from './environment-view';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

const expiredAt = new Date(2026, 0, 5, 14, 5).getTime();
const failedAt = expiredAt + 3_600_000;
const expired = makeEnv({
  link: { kind: 'failed', since: failedAt, reason: 'gone', code: 'unknownSession', expiredAt },
});

describe('ExpiredSession', () => {
  it('says when the session expired, lists the processes that ended with it, and starts a new one', async () => {
    bridge.handle('environments.reconnectNow', () => ({ ok: true }));
    const ended = { state: 'lost' as const, endedAt: failedAt, failure: 'session gone' };
    useProcesses
      .getState()
      .setForEnv('env-1', [
        makeProcess({ processId: 'build', title: 'make -j8', ...ended }),
        makeProcess({ processId: 'tail', title: 'tail -f log', ...ended }),
        makeProcess({ processId: 'old', title: 'exited earlier', state: 'exited', exitCode: 0, endedAt: 5 }),
        makeProcess({ processId: 'before', title: 'lost before', state: 'lost', endedAt: failedAt - 1 }),
      ]);
    render(<EnvironmentView env={expired} />);
    const banner = screen.getByRole('region', { name: 'Session expired' });
    expect(within(banner).getByText(/Session expired at 14:05\./)).toBeTruthy();
    expect(banner.textContent).toMatch(/these 2 processes ended with it; their output is kept/);
    const list = within(banner).getByRole('list', { name: 'Processes that ended with the session' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['make -j8', 'tail -f log']);
    expect(screen.queryByRole('button', { name: 'Reconnect now' }), 'one way to start over').toBeNull();
    await userEvent.click(within(banner).getByRole('button', { name: 'Start a new session' }));
    expect(bridge.callsOf('environments.reconnectNow')).toEqual([{ id: 'env-1' }]);
  });

  it('is not shown for a failure that is not an expiry', () => {
    render(
      <EnvironmentView env={makeEnv({ link: { kind: 'failed', since: 1, reason: 'token rejected' } })} />,
    );
    expect(screen.queryByRole('region', { name: 'Session expired' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reconnect now' })).toBeTruthy();
  });
});
