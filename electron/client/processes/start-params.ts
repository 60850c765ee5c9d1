// Translates the client's ProcessStartOptions into the `process/start` params for one server: the
// cwd becomes a file:// URI, defaults are filled in, and Tether extensions (initial terminal size,
// flow-control window) are sent only where the server advertises them.
import type { Method } from '../../../shared/protocol';
import { TetherCapability, type ParamsOf } from '../../../shared/protocol';
import type { ProcessStartOptions } from '../api';
import { toPathUri } from '../files/path-uri';

type StartParams = ParamsOf<typeof Method.processStart>;

/** The params for starting `options` as `processId` on a server with the capabilities `has` reports. */
export function processStartParams(
  options: ProcessStartOptions,
  processId: string,
  has: (capability: string) => boolean,
): StartParams {
  const params: StartParams = {
    processId,
    argv: options.argv,
    cwd: toPathUri(options.cwd),
    env: options.env ?? {},
    tty: options.tty,
    pipeStdin: options.pipeStdin ?? false,
    arg0: options.arg0 ?? null,
    envPolicy: options.inheritEnv
      ? { inherit: 'all', ignoreDefaultExcludes: true, exclude: [], set: {}, includeOnly: [] }
      : null,
  };
  if (options.size && options.tty && has(TetherCapability.processResize)) params.size = options.size;
  if (options.outputWindowBytes !== undefined && has(TetherCapability.flowControl)) {
    params.outputWindowBytes = options.outputWindowBytes;
  }
  return params;
}
