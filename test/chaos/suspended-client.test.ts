// A client process that is suspended for minutes, as a laptop's processes are while it sleeps:
// `tether run` gets SIGSTOP right after its process starts printing and SIGCONT over two minutes
// later. The remote process carries on (and finishes) meanwhile; once resumed, `tether run` must
// catch up by itself — whether its old connection survived or it has to resume the session — and
// print every byte once, in order, and exit with the process's code.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TETHER_BIN } from '../support/exec-servers';
import { firstDifference, lineStream } from './line-stream';
import { waitUntil, within } from './process-follower';
import { chaosRig } from './rig';

const SUSPENDED_MS = 125_000;
/** After SIGCONT: notice, reconnect if it must, catch up and exit, with room for a loaded machine. */
const DONE_AFTER_CONTINUE_MS = 60_000;

/** The one-letter state of a Linux process (`T` when stopped), from /proc/PID/stat. */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

describe('a suspended tether run', () => {
  const rig = chaosRig();

  it(
    'recovers after SIGSTOP for two minutes and SIGCONT, byte-exact with the exit code',
    async () => {
      const { server, proxy } = await rig.serve('tether');
      // ~40 s of output (~110 KB): the process ends while its client is stopped.
      const stream = lineStream({ bursts: 40, linesPerBurst: 500, pauseMs: 1_000, exitCode: 3 });
      const child = spawn(
        process.execPath,
        [
          TETHER_BIN,
          'run',
          '--server',
          proxy.url(),
          '--token-file',
          server.tokenFile!,
          '--verbose',
          '--',
          ...stream.argv,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const pid = child.pid!;
      const stdout: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => stdout.push(d));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
      const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('close', (code, signal) => resolve({ code, signal })),
      );
      try {
        await waitUntil(() => stdout.length > 0, 30_000, 'the first output');
        process.kill(pid, 'SIGSTOP');
        await waitUntil(() => processState(pid) === 'T', 10_000, 'tether run to be stopped');
        await new Promise((r) => setTimeout(r, SUSPENDED_MS));
        expect(processState(pid), 'still stopped at the end of the suspension').toBe('T');
        process.kill(pid, 'SIGCONT');
        const result = await within(closed, DONE_AFTER_CONTINUE_MS, 'tether run to finish after SIGCONT');
        const output = Buffer.concat(stdout);
        console.log(`[chaos] suspended tether run: ${stderr.trim().split('\n').join(' | ')}`);
        expect(result.signal, stderr).toBeNull();
        expect(firstDifference(output, stream.expected()), stderr).toBe('identical');
        expect(result.code, stderr).toBe(stream.exitCode);
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          process.kill(pid, 'SIGCONT');
          child.kill('SIGKILL');
        }
      }
    },
    SUSPENDED_MS + 120_000,
  );
});
