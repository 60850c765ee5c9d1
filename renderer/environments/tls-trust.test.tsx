// The renderer's part of encrypted links: the trust-on-first-use prompt in the environment dialog
// (shown fingerprint, pin saved only on "Trust", hard stop on a changed certificate) and the note
// on unencrypted ws:// links to another machine, in the dialog, the environment view and the tooltip.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TestConnectionResult } from '../../shared/ipc';
import { useUi } from '../app/ui-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { EnvironmentDialog } from './environment-dialog';
import { EnvironmentView } from './environment-view';
import { StatusIndicator } from '../health/status-indicator';

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase()).join(':');
const PINNED = Array.from({ length: 32 }, () => 'AB').join(':');
const URL = 'wss://10.0.0.2:7443';

const untrusted: TestConnectionResult = {
  ok: false,
  stage: 'certificate',
  message: `The certificate of ${URL} could not be verified; its SHA-256 fingerprint is ${FINGERPRINT}.`,
  info: null,
  rttMs: null,
  certificate: { problem: 'untrusted', fingerprint: FINGERPRINT, pinned: null },
};
const works: TestConnectionResult = { ok: true, stage: 'ok', message: 'ok', info: {}, rttMs: 4 };

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

/** "Test connection" answers like a server with a self-signed certificate: only the pin passes. */
function selfSignedServer(): void {
  bridge.handle('environments.test', ({ settings }) =>
    settings.kind === 'ws' && settings.tlsFingerprint === FINGERPRINT ? works : untrusted,
  );
  bridge.handle('environments.add', (draft) =>
    makeEnv({ id: 'new', name: draft.name, settings: draft.settings }),
  );
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, url: string): Promise<void> {
  await user.type(screen.getByLabelText('Name'), 'Lab');
  await user.selectOptions(screen.getByLabelText('Connect via'), 'ws');
  await user.type(screen.getByLabelText('URL'), url);
}

describe('trust on first use in the environment dialog', () => {
  it('shows the fingerprint of an untrusted certificate and pins it only when trusted', async () => {
    const user = userEvent.setup();
    selfSignedServer();
    let closed = false;
    render(<EnvironmentDialog onClose={() => (closed = true)} />);
    await fillIn(user, URL);
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const prompt = await screen.findByRole('alertdialog', { name: 'The server certificate is not trusted' });
    expect(screen.getByLabelText('Presented fingerprint').textContent).toBe(FINGERPRINT);
    expect(prompt.textContent).toContain('openssl x509 -noout -fingerprint -sha256');

    await user.click(screen.getByRole('button', { name: 'Trust this certificate' }));
    expect(await screen.findByText(/Connection works/)).toBeTruthy();
    expect(bridge.callsOf('environments.test')[1]?.settings).toEqual({
      kind: 'ws',
      url: URL,
      tlsFingerprint: FINGERPRINT,
    });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.add')[0]?.settings).toEqual({
      kind: 'ws',
      url: URL,
      tlsFingerprint: FINGERPRINT,
    });
  });

  it('asks before adding an unpinned wss environment whose certificate does not verify', async () => {
    const user = userEvent.setup();
    selfSignedServer();
    let closed = false;
    render(<EnvironmentDialog onClose={() => (closed = true)} />);
    await fillIn(user, URL);
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findByRole('alertdialog', { name: 'The server certificate is not trusted' });
    expect(bridge.callsOf('environments.add')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Don’t trust' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bridge.callsOf('environments.add')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(await screen.findByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.add')).toHaveLength(1);
    expect(bridge.callsOf('environments.add')[0]?.settings).toMatchObject({ tlsFingerprint: FINGERPRINT });
  });

  it('names both fingerprints when the pinned certificate changed', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.test', () => ({
      ...untrusted,
      certificate: { problem: 'changed', fingerprint: FINGERPRINT, pinned: PINNED },
    }));
    const existing = makeEnv({ settings: { kind: 'ws', url: URL, tlsFingerprint: PINNED } });
    render(<EnvironmentDialog existing={existing} onClose={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByRole('alertdialog', { name: 'The server certificate has changed' });
    expect(bridge.callsOf('environments.test')[0]?.settings).toMatchObject({ tlsFingerprint: PINNED });
    expect(screen.getByLabelText('Presented fingerprint').textContent).toBe(FINGERPRINT);
    expect(screen.getByLabelText('Pinned fingerprint').textContent).toBe(PINNED);
  });
});

describe('the unencrypted-link note', () => {
  it('appears in the dialog for ws:// to another machine, not for wss:// or loopback', () => {
    render(<EnvironmentDialog onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Connect via'), { target: { value: 'ws' } });
    const typeUrl = (value: string): void =>
      void fireEvent.change(screen.getByLabelText('URL'), { target: { value } });
    for (const quiet of [
      'ws://127.0.0.1:7000',
      'ws://127.3.4.5:7000',
      'ws://localhost:7000',
      'ws://[::1]:7000',
      'wss://10.0.0.2:7000',
    ]) {
      typeUrl(quiet);
      expect(screen.queryByRole('note'), quiet).toBeNull();
    }
    typeUrl('ws://10.0.0.2:7000');
    expect(screen.getByRole('note').textContent).toMatch(/^Unencrypted link/);
  });

  it('appears in the environment view and the status tooltip of an unencrypted remote link', () => {
    const remote = makeEnv({ settings: { kind: 'ws', url: 'ws://build.example.com:7000' } });
    useUi.getState().showPanel(remote.id, 'health');
    render(<EnvironmentView env={remote} />);
    expect(screen.getByRole('note').textContent).toMatch(/^Unencrypted link/);
    const indicators = screen.getAllByRole('img', { name: 'Connection: connected, 3 ms' });
    expect(indicators.length).toBeGreaterThan(0);
    for (const indicator of indicators) expect(indicator.getAttribute('title')).toMatch(/unencrypted link/);
    cleanup();
    render(<StatusIndicator env={makeEnv()} />);
    expect(screen.getByRole('img').getAttribute('title')).toBe('Connection: connected, 3 ms');
    expect(screen.queryByRole('note')).toBeNull();
  });
});
