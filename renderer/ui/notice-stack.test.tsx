// The host's notices (e.g. tokens stored unencrypted) stay on screen until dismissed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNotices } from './notices-store';
import type { FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { NoticeStack } from './notice-stack';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

describe('NoticeStack', () => {
  it('shows a notice until it is dismissed', async () => {
    const user = userEvent.setup();
    bridge.handle('app.dismissNotice', () => ({ ok: true }));
    useNotices.getState().add({ id: 'n1', level: 'warning', message: 'Tokens are not encrypted.', at: 0 });
    render(<NoticeStack />);
    expect(screen.getByRole('alert').textContent).toContain('Tokens are not encrypted.');
    await user.click(screen.getByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bridge.callsOf('app.dismissNotice')).toEqual([{ id: 'n1' }]);
  });
});
