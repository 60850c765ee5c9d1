// An environment's colour shows wherever the environment is (issue #14, visual identity): its
// sidebar entry, the status bar, and (through --env-color) the selected terminal tab.
import '../test/browser-stand-ins';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { useEnvironments } from './environments-store';
import { useUi } from '../app/ui-store';
import { makeEnv } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';

afterEach(cleanup);

const swatchColour = (container: HTMLElement) =>
  (container.querySelector('.env-swatch') as HTMLElement | null)?.style.background;

describe('the environment colour', () => {
  it('shows in the status bar and colours the selected tab, following the selected environment', () => {
    withTwoEnvironments();
    useEnvironments.getState().upsert(makeEnv({ id: 'env-2', name: 'Pi', color: '#e5534b' }));
    render(<App />);
    const status = screen.getByRole('contentinfo', { name: 'Status bar' });
    expect(within(status).getByText('Build box')).toBeDefined();
    expect(swatchColour(status)).toBe('rgb(59, 130, 246)');
    expect(document.querySelector<HTMLElement>('main')!.style.getPropertyValue('--env-color')).toBe(
      '#3b82f6',
    );

    act(() => useUi.getState().selectEnv('env-2'));
    expect(within(status).getByText('Pi')).toBeDefined();
    expect(swatchColour(status)).toBe('rgb(229, 83, 75)');
    expect(document.querySelector<HTMLElement>('main')!.style.getPropertyValue('--env-color')).toBe(
      '#e5534b',
    );
  });
});
