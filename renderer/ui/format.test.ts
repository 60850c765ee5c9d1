import { describe, expect, it } from 'vitest';
import { formatEnding } from './format';

describe('formatEnding', () => {
  it('gives the exit code of an exited process', () => {
    expect(formatEnding({ state: 'exited', exitCode: 3, failure: null })).toBe('exited with code 3');
  });

  it('names the signal of a process a signal ended (exit code 128 + n)', () => {
    expect(formatEnding({ state: 'exited', exitCode: 137, failure: null })).toBe(
      'killed by signal SIGKILL (exit code 137)',
    );
  });

  it('says why a process was lost or failed, as the app reported it', () => {
    const why = 'Session lost: the server no longer had the session this process ran in';
    expect(formatEnding({ state: 'lost', exitCode: null, failure: why })).toBe(`lost: ${why}`);
    expect(formatEnding({ state: 'failed', exitCode: null, failure: 'spawn ENOENT' })).toBe(
      'failed: spawn ENOENT',
    );
    expect(formatEnding({ state: 'lost', exitCode: null, failure: null })).toBe('lost');
  });
});
