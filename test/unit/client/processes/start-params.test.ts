// processStartParams: ProcessStartOptions become `process/start` params, with defaults filled in
// and Tether extensions sent only to servers that advertise them.
import { describe, expect, it } from 'vitest';
import { isClientError } from '../../../../electron/client/client-error';
import { processStartParams } from '../../../../electron/client/processes/start-params';
import { TetherCapability } from '../../../../shared/protocol';

const codex = (): boolean => false;
const tether = (capability: string): boolean =>
  capability === TetherCapability.processResize || capability === TetherCapability.flowControl;

describe('processStartParams', () => {
  it('fills in the defaults codex expects and encodes the cwd as a file:// URI', () => {
    expect(processStartParams({ argv: ['/bin/true'], cwd: '/home/a b%', tty: false }, 'p1', codex)).toEqual({
      processId: 'p1',
      argv: ['/bin/true'],
      cwd: 'file:///home/a%20b%25',
      env: {},
      tty: false,
      pipeStdin: false,
      arg0: null,
      envPolicy: null,
    });
  });

  it('passes env, stdin and arg0 through, and inherits the whole server environment on request', () => {
    const params = processStartParams(
      { argv: ['sh'], cwd: '/', tty: false, env: { A: '1' }, pipeStdin: true, arg0: '-sh', inheritEnv: true },
      'p2',
      codex,
    );
    expect(params).toMatchObject({ env: { A: '1' }, pipeStdin: true, arg0: '-sh' });
    expect(params.envPolicy).toEqual({
      inherit: 'all',
      ignoreDefaultExcludes: true,
      exclude: [],
      set: {},
      includeOnly: [],
    });
  });

  it('sends the initial size only for a tty on a server that can resize', () => {
    const size = { cols: 100, rows: 30 };
    expect(processStartParams({ argv: ['sh'], cwd: '/', tty: true, size }, 'p', tether).size).toEqual(size);
    expect(processStartParams({ argv: ['sh'], cwd: '/', tty: false, size }, 'p', tether)).not.toHaveProperty(
      'size',
    );
    expect(processStartParams({ argv: ['sh'], cwd: '/', tty: true, size }, 'p', codex)).not.toHaveProperty(
      'size',
    );
  });

  it('sends the output window only to a server with flow control', () => {
    const options = { argv: ['sh'], cwd: '/', tty: false, outputWindowBytes: 65_536 };
    expect(processStartParams(options, 'p', tether).outputWindowBytes).toBe(65_536);
    expect(processStartParams(options, 'p', codex)).not.toHaveProperty('outputWindowBytes');
  });

  it('refuses a relative cwd', () => {
    let thrown: unknown;
    try {
      processStartParams({ argv: ['sh'], cwd: 'relative/dir', tty: false }, 'p', codex);
    } catch (error) {
      thrown = error;
    }
    expect(isClientError(thrown, 'invalidArgument')).toBe(true);
  });
});
