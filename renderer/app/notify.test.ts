// A long shell command that ends while the user is elsewhere (shell integration): a toast and an
// OS notification with how it ended; a short one, or one ending in front of the user, says nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProcessView, ShellCommand } from '../../shared/ipc';
import { makeProcess } from '../test/fake-bridge';
import { useToasts } from '../ui/toasts-store';
import { commandChanged, LONG_COMMAND_MS } from './notify';

const shown: string[] = [];
class RecordingNotification {
  static permission = 'granted';
  constructor(_title: string, options: { body: string }) {
    shown.push(options.body);
  }
}

const command = (patch: Partial<ShellCommand>): ShellCommand => ({
  line: 'make test',
  cwd: '/src',
  startedAt: 1_000,
  endedAt: null,
  exitCode: null,
  ...patch,
});
const shell = (c: ShellCommand): ProcessView => makeProcess({ title: 'bash', commands: [c] });

beforeEach(() => {
  shown.length = 0;
  vi.stubGlobal('Notification', RecordingNotification);
  vi.spyOn(document, 'hasFocus').mockReturnValue(false);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('commandChanged', () => {
  it('notifies once a long command ends out of sight, with its exit status', () => {
    const running = shell(command({}));
    commandChanged(running, shell(command({ endedAt: 1_000 + LONG_COMMAND_MS, exitCode: 2 })));
    expect(shown).toEqual(['make test failed (exit 2) in bash.']);
    expect(useToasts.getState().list.at(-1)?.message).toBe('make test failed (exit 2) in bash.');
    // Already ended before: nothing new.
    commandChanged(
      shell(command({ endedAt: 1_000 + LONG_COMMAND_MS, exitCode: 2 })),
      shell(command({ endedAt: 1_000 + LONG_COMMAND_MS, exitCode: 2 })),
    );
    // Short: nothing.
    commandChanged(running, shell(command({ endedAt: 1_000 + LONG_COMMAND_MS - 1, exitCode: 0 })));
    expect(shown).toHaveLength(1);
  });
});
