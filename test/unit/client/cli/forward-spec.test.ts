// `tether forward` arguments: [LOCAL:]HOST:PORT as ssh -L reads them.
import { describe, expect, it } from 'vitest';
import { parseForwardSpec } from '../../../../electron/client/cli/forward-cli';

describe('parseForwardSpec', () => {
  it('reads the local port, the host (IPv6 in brackets) and the port', () => {
    expect(parseForwardSpec('5173:localhost:5173')).toEqual({
      localPort: 5173,
      target: { host: 'localhost', port: 5173 },
    });
    expect(parseForwardSpec('localhost:80')).toEqual({ target: { host: 'localhost', port: 80 } });
    expect(parseForwardSpec('0:[::1]:3000')).toEqual({ localPort: 0, target: { host: '::1', port: 3000 } });
  });

  it('refuses what is not a forward, and ports out of range', () => {
    for (const bad of [
      '5173',
      'localhost',
      ':80',
      '1:2:3:4',
      'localhost:0',
      'localhost:70000',
      '99999:localhost:1',
    ]) {
      expect(() => parseForwardSpec(bad), bad).toThrow(/port number|\[LOCAL:\]HOST:PORT/);
    }
  });
});
