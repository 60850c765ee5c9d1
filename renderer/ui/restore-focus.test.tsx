import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { withFreshBridge } from '../test/fresh-bridge';
import { Modal } from './modal';
import { CommandPalette } from '../palette/command-palette';

beforeEach(() => {
  withFreshBridge();
});
afterEach(cleanup);

// A button that opens an overlay; the overlay closes itself through its onClose.
function Opener(props: { overlay: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <button>Elsewhere</button>
      {open && props.overlay(() => setOpen(false))}
    </>
  );
}

describe('focus after an overlay closes', () => {
  it('goes back to where it was when a dialog closes with Escape or a button', async () => {
    const user = userEvent.setup();
    render(
      <Opener
        overlay={(close) => (
          <Modal title="A dialog" onClose={close}>
            <input aria-label="Field" />
            <button onClick={close}>Done</button>
          </Modal>
        )}
      />,
    );
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Field' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));

    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('goes back to where it was when the command palette closes', async () => {
    const user = userEvent.setup();
    render(<Opener overlay={(close) => <CommandPalette onClose={close} />} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Command palette' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('leaves focus alone when what the dialog did moved it somewhere on purpose', async () => {
    const user = userEvent.setup();
    render(
      <Opener
        overlay={(close) => (
          <Modal title="A dialog" onClose={close}>
            <button
              onClick={() => {
                close();
                screen.getByRole('button', { name: 'Elsewhere' }).focus();
              }}
            >
              Go
            </button>
          </Modal>
        )}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elsewhere' }));
  });
});
