import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../../../electron/client/transports/command/command-line';
import { ClientError } from '../../../../electron/client/client-error';

describe('splitCommandLine', () => {
  it('splits on whitespace and keeps quoted words whole', () => {
    expect(splitCommandLine('ssh  user@host   npx tether exec-server --listen stdio')).toEqual([
      'ssh',
      'user@host',
      'npx',
      'tether',
      'exec-server',
      '--listen',
      'stdio',
    ]);
    expect(splitCommandLine(`ssh host 'cd /srv && tether exec-server'`)).toEqual([
      'ssh',
      'host',
      'cd /srv && tether exec-server',
    ]);
    expect(splitCommandLine(`a "b \\"c\\" \\$HOME" d\\ e ''`)).toEqual(['a', 'b "c" $HOME', 'd e', '']);
    expect(splitCommandLine(`x"y"'z'`)).toEqual(['xyz']);
  });

  it('keeps backslashes that escape nothing inside double quotes, and literal ones in single quotes', () => {
    expect(splitCommandLine(`"a\\nb" 'c\\d'`)).toEqual(['a\\nb', 'c\\d']);
  });

  it('rejects unterminated quotes, a trailing backslash and empty lines with invalidInput', () => {
    for (const bad of [`ssh 'host`, `ssh "host`, 'ssh host\\', '   ']) {
      let caught: unknown;
      try {
        splitCommandLine(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ClientError);
      expect((caught as ClientError).code).toBe('invalidArgument');
    }
  });
});
