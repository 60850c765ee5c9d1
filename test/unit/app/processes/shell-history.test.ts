// A shell's command history as the app reads it from output bytes: OSC 133 and OSC 7 split across
// chunks anywhere, both terminators, a runaway sequence skipped, an empty prompt no command, a
// command that never ended closed by the next, and the history bounded.
import { describe, expect, it } from 'vitest';
import { OscScanner, ShellHistory } from '../../../../electron/app/processes/shell-history';
import { MAX_SHELL_COMMANDS } from '../../../../electron/app/limits';

const bytes = (text: string) => new TextEncoder().encode(text);
const prompt = (folder: string) =>
  `\u001b]7;file://host${folder}\u0007\u001b]133;A\u0007$ \u001b]133;B\u0007`;

describe('OscScanner', () => {
  it('finds each sequence once whatever the chunks, with BEL or ST, and skips one too long', () => {
    const found: string[] = [];
    const scanner = new OscScanner((payload) => found.push(payload));
    const stream = `a\u001b]133;A\u0007b\u001b]7;file:///t\u001b\\c\u001b]0;${'x'.repeat(10_000)}\u0007\u001b]133;D;2\u0007`;
    for (const char of bytes(stream)) scanner.scan(Uint8Array.of(char));
    expect(found).toEqual(['133;A', '7;file:///t', '133;D;2']);
  });
});

describe('ShellHistory', () => {
  it('records each command with its line, folder, times and exit status', () => {
    const history = new ShellHistory();
    expect(history.read(bytes(prompt('/srv')), 1)).toBe(false);
    const run = `ls\r\n\u001b]133;C;cmdline_url=ls%20-l%20%22a%20b%22\u0007out\r\n`;
    expect(history.read(bytes(run), 2)).toBe(true);
    expect(history.commands).toEqual([
      { line: 'ls -l "a b"', cwd: '/srv', startedAt: 2, endedAt: null, exitCode: null },
    ]);
    expect(history.read(bytes(`\u001b]133;D;3\u0007${prompt('/srv')}`), 5)).toBe(true);
    // An empty line: a prompt after a prompt, no command.
    expect(history.read(bytes(`\r\n${prompt('/tmp')}`), 6)).toBe(false);
    history.read(bytes('\u001b]133;C;cmdline_url=sleep%209\u0007'), 7);
    // Killed mid-way: the next command ends it without a status.
    history.read(bytes('\u001b]133;C\u0007'), 9);
    expect(history.commands).toEqual([
      { line: 'ls -l "a b"', cwd: '/srv', startedAt: 2, endedAt: 5, exitCode: 3 },
      { line: 'sleep 9', cwd: '/tmp', startedAt: 7, endedAt: 9, exitCode: null },
      { line: '', cwd: '/tmp', startedAt: 9, endedAt: null, exitCode: null },
    ]);
  });

  it('keeps the newest commands only', () => {
    const history = new ShellHistory();
    for (let i = 0; i < MAX_SHELL_COMMANDS + 5; i++)
      history.read(bytes(`\u001b]133;C;cmdline_url=c${i}\u0007\u001b]133;D;0\u0007`), i);
    expect(history.commands).toHaveLength(MAX_SHELL_COMMANDS);
    expect(history.commands?.[0]?.line).toBe('c5');
  });
});
