import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { ConnectLogDialog } from './connect-log-dialog';

const LINES = Array.from({ length: 200 }, (_, i) => `10:00:${String(i % 60).padStart(2, '0')}.000 line ${i}`);
/** jsdom lays nothing out: the log's content is this tall, as a browser would measure it. */
const LOG_HEIGHT_PX = 4321;

let bridge: FakeBridge;
let restoreScrollHeight: () => void;
beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('ssh.connectLog', () => ({ lines: LINES }));
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollHeight');
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('connect-log') ? LOG_HEIGHT_PX : 0;
    },
  });
  restoreScrollHeight = () => {
    if (own) Object.defineProperty(HTMLElement.prototype, 'scrollHeight', own);
  };
});
afterEach(() => {
  cleanup();
  restoreScrollHeight();
});

describe('Show log', () => {
  it('opens wide, scrolled to the latest line, and copies the whole log', async () => {
    const user = userEvent.setup();
    render(<ConnectLogDialog envId="env-1" envName="Lab" onClose={() => undefined} />);
    const log = await screen.findByLabelText('Connect log');
    expect(screen.getByRole('dialog', { name: 'Connect log of Lab' }).classList.contains('wide')).toBe(true);
    expect(log.scrollTop).toBe(LOG_HEIGHT_PX);

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied.'));
    expect(await navigator.clipboard.readText()).toBe(LINES.join('\n'));
  });
});
