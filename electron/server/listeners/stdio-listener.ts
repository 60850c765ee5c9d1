// The stdio transport: one connection on stdin/stdout, newline-delimited JSON until binary frames are
// agreed (then length-prefixed frames, stream-transport.ts).
// Outbound messages of one event-loop turn are written together; EOF on stdin ends the server.
import { Connection, type ConnectionDeps } from '../rpc/connection';
import { StreamTransport } from '../rpc/stream-transport';
import { localUserPrincipal } from './principal';

export interface StdioListener {
  /** Writes out what is queued; call before exiting. */
  flush(): Promise<void>;
}

/** Serves one connection on stdin/stdout; `onEnd(exitCode)` runs on EOF (0) or a protocol violation (1). */
export function startStdioListener(deps: ConnectionDeps, onEnd: (exitCode: number) => void): StdioListener {
  const transport = new StreamTransport(
    'failed to parse JSON-RPC message from exec-server stdio',
    process.stdin,
    process.stdout,
    () => onEnd(1),
    // A stdio server carries exactly one connection; while its stdin is open, it is the live one.
    () => true,
  );
  const connection = new Connection(transport, deps, localUserPrincipal());
  transport.serve(connection);
  process.stdin.on('end', () => {
    connection.handleClose();
    onEnd(0);
  });
  process.stdin.on('error', () => {
    connection.handleClose();
    onEnd(0);
  });

  return {
    flush: () =>
      new Promise((resolve) => {
        transport.flush();
        if (process.stdout.writableLength === 0) resolve();
        else process.stdout.write('', () => resolve());
      }),
  };
}
