// Terminal search against a real xterm with real output: the count of matches, and case, whole-word
// and regular-expression matching.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startApp } from '../app/start-app';
import { terminalContent, usePanes } from '../panes/panes-store';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';
import { DEFAULT_SETTINGS } from '../settings/settings-store';

const OUTPUT = 'Foo foo food\r\nfoo.bar foo_x FOO\r\n';

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(async () => {
  bridge = withTwoEnvironments();
  bridge
    .handle('environments.list', () => [makeEnv()])
    .handle('settings.get', () => DEFAULT_SETTINGS)
    .handle('transfers.list', () => [])
    .handle('app.notices', () => [])
    .handle('processes.list', () => [makeProcess({ processId: 'shell', title: 'bash' })])
    .handle('processes.replay', () => ({
      events: [{ kind: 'output', seq: 1, stream: 'pty', data: btoa(OUTPUT) }],
      lastSeq: 1,
      shownThroughSeq: 1,
    }))
    .handle('processes.resize', () => ({ applied: true }))
    .handle('processes.ack', () => ({ ok: true }));
  stop = await startApp();
  usePanes.getState().openTab('env-1', terminalContent('shell'));
});
afterEach(() => {
  stop?.();
  cleanup();
});

describe('terminal search', () => {
  it('counts the matches and honours case, whole word and regular expressions', async () => {
    const user = userEvent.setup();
    render(<App />);
    await waitFor(() => expect(document.querySelector('.xterm-rows')?.textContent).toContain('foo_x'));
    await user.click(screen.getByRole('button', { name: /^Search/ }));
    const bar = screen.getByRole('search');
    const count = () => within(bar).getByRole('status').textContent;
    await user.type(within(bar).getByRole('textbox', { name: 'Search terminal' }), 'foo');
    // Foo, foo, foo(d), foo(.bar), foo(_x), FOO.
    await waitFor(() => expect(count()).toBe('1 of 6'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(count()).toBe('2 of 6'));

    await user.click(within(bar).getByRole('button', { name: 'Match case' }));
    expect(within(bar).getByRole('button', { name: 'Match case' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(count()).toMatch(/ of 4$/));
    await user.click(within(bar).getByRole('button', { name: 'Match whole word' }));
    // "foo" alone and "foo" before "."; "food" and "foo_x" are other words.
    await waitFor(() => expect(count()).toMatch(/ of 2$/));

    await user.click(within(bar).getByRole('button', { name: 'Match case' }));
    await user.click(within(bar).getByRole('button', { name: 'Match whole word' }));
    await user.click(within(bar).getByRole('button', { name: 'Use regular expression' }));
    const input = within(bar).getByRole('textbox', { name: 'Search terminal' });
    await user.clear(input);
    await user.type(input, 'fo+[[dx.]');
    await waitFor(() => expect(count()).toMatch(/ of 2$/));
    await user.type(input, '(');
    await waitFor(() => expect(count()).toBe('invalid regular expression'));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.clear(input);
    await user.type(input, 'nothing-here');
    await waitFor(() => expect(count()).toBe('no match'));
  });
});
