// The terminal profile's model: what a valid profile is, and the dialog's NAME=value lines.
import { describe, expect, it } from 'vitest';
import {
  commandLines,
  EMPTY_TERMINAL_PROFILE,
  EnvironmentDraft,
  formatVariables,
  parseVariables,
  TerminalProfile,
  variableNameProblem,
} from '../../../shared/ipc';

describe('variable names', () => {
  it('accepts the portable names and says what is wrong with the rest', () => {
    for (const ok of ['A', '_', 'PATH', 'my_var2', '_X9']) expect(variableNameProblem(ok)).toBeNull();
    expect(variableNameProblem('')).toBe('A variable needs a name before the =.');
    for (const bad of ['1ABC', 'MY-VAR', 'A B', 'É', 'X=Y', '$HOME'])
      expect(variableNameProblem(bad)).toBe(
        `"${bad}" is not a valid variable name: use letters, digits and _, not starting with a digit.`,
      );
  });
});

describe('TerminalProfile', () => {
  const profile = (patch: Partial<TerminalProfile>) => ({ ...EMPTY_TERMINAL_PROFILE, ...patch });

  it('takes a full profile as it is', () => {
    const full = profile({
      shell: '/bin/zsh',
      args: ['-l'],
      cwd: '~/src',
      env: [{ name: 'GREETING', value: 'hello = world' }],
      startCommands: ['export X=1', 'cd /tmp'],
    });
    expect(TerminalProfile.parse(full)).toEqual(full);
  });

  it('refuses a bad variable name with a message naming it, at its place', () => {
    const result = TerminalProfile.safeParse(profile({ env: [{ name: '9LIVES', value: 'x' }] }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['env', 0, 'name']);
    expect(result.error?.issues[0]?.message).toMatch(/"9LIVES" is not a valid variable name/);
  });

  it('refuses a variable set twice', () => {
    const twice = profile({
      env: [
        { name: 'A', value: '1' },
        { name: 'A', value: '2' },
      ],
    });
    expect(TerminalProfile.safeParse(twice).error?.issues[0]?.message).toBe('A is set twice.');
  });

  it('is optional in a draft (an edit without one keeps the stored profile)', () => {
    const draft = { name: 'X', color: '#123456', settings: { kind: 'local' } };
    expect(EnvironmentDraft.parse(draft).terminalProfile).toBeUndefined();
    expect(EnvironmentDraft.safeParse({ ...draft, terminalProfile: { shell: '' } }).success).toBe(false);
  });
});

describe('NAME=value lines', () => {
  it('parse into variables, keeping everything after the first = as the value', () => {
    expect(parseVariables('A=1\n\n  B = two=2 \nEMPTY=')).toEqual({
      vars: [
        { name: 'A', value: '1' },
        { name: 'B', value: ' two=2 ' },
        { name: 'EMPTY', value: '' },
      ],
    });
  });

  it('say which line is wrong, and why', () => {
    expect(parseVariables('A=1\njust words')).toEqual({ error: 'Line 2: write NAME=value.' });
    expect(parseVariables('MY-VAR=1')).toEqual({
      error:
        'Line 1: "MY-VAR" is not a valid variable name: use letters, digits and _, not starting with a digit.',
    });
    expect(parseVariables('=1')).toEqual({ error: 'Line 1: A variable needs a name before the =.' });
    expect(parseVariables('A=1\nA=2')).toEqual({ error: 'Line 2: A is set twice.' });
  });

  it('round-trip through the text the dialog shows', () => {
    const vars = [
      { name: 'A', value: 'x=y' },
      { name: 'B', value: '' },
    ];
    expect(parseVariables(formatVariables(vars))).toEqual({ vars });
  });

  it('start commands are the non-blank lines', () => {
    expect(commandLines('echo one  \n\n   \n  cd /tmp')).toEqual(['echo one', '  cd /tmp']);
  });
});
