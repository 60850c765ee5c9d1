// The end of a bulk stream: its last reads come too close together to leave at once, so the
// reader thread still gathers them when the pipe closes. They must leave before the stream's ring
// is given up for reuse; a flush after that once threw in the reader thread and the tail of the
// output was lost, with no gap to show it. The race is narrow (a few runs in a hundred of 8 MiB),
// so this runs the stream many times; output-ring.test.ts holds the exact case.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { serverCommand } from '../../support/exec-servers';

const RUNS = 60;
const BYTES = 8 * 1024 * 1024;

let client: RemoteExecServerClient;
beforeAll(async () => {
  const { command, args } = serverCommand('tether');
  client = new RemoteExecServerClient({
    transport: { kind: 'stdio', command: [command, ...args, '--listen', 'stdio'] },
  });
  await client.connect();
});
afterAll(() => client.close());

describe('bulk output to its end', () => {
  it(`delivers every byte and the real exit of ${RUNS} runs of ${BYTES / 1024 / 1024} MiB in a row`, async () => {
    const failures: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const handle = await client.startProcess({
        argv: ['head', '-c', String(BYTES), '/dev/zero'],
        cwd: os.tmpdir(),
        env: { PATH: '/usr/bin:/bin' },
        tty: false,
      });
      let bytes = 0;
      let exit = 'none';
      await new Promise<void>((resolve) =>
        handle.subscribe((event) => {
          if (event.kind === 'output') {
            bytes += event.data.length;
            handle.acknowledge(bytes);
          } else if (event.kind === 'exited') exit = `code ${event.exitCode}`;
          else if (event.kind === 'closed' || event.kind === 'failed') resolve();
        }),
      );
      handle.dispose();
      if (bytes !== BYTES || exit !== 'code 0') failures.push(`run ${run}: ${bytes} bytes, ${exit}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
