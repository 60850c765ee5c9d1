// The Health panel: RTT percentiles, reconnects, the state timeline and what the server reported.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { makeEnv } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { HealthPanel } from './health-panel';

beforeEach(() => {
  withFreshBridge();
});
afterEach(cleanup);

describe('HealthPanel', () => {
  it('shows percentiles, reconnects, the state timeline and server info', () => {
    render(<HealthPanel env={makeEnv()} />);
    expect(screen.getByText('RTT p95').nextSibling?.textContent).toBe('5 ms');
    expect(screen.getByText('Reconnects').nextSibling?.textContent).toBe('2');
    expect(screen.getByRole('img', { name: /RTT over the last 2 s, latest 4 ms/ })).toBeTruthy();
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(within(timeline).getByText(/reconnecting — socket closed/)).toBeTruthy();
    const server = screen.getByRole('region', { name: 'Server' });
    const row = (label: string) => within(server).getByText(label).nextSibling?.textContent;
    expect(row('Shell')).toBe('bash (/bin/bash)');
    expect(row('Server directory')).toBe('/home/u/my project');
    expect(row('TMPDIR')).toBe('/scratch/tmp');
    expect(row('Capabilities')).toBe('tetherFlowControl, tetherProcessResize');
    expect(row('providerId')).toBe('build-7');
  });
});
