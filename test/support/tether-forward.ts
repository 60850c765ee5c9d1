// Runs `tether forward ARGS…` for a test: resolves once it printed its first line (the local
// address it listens on), and stops it by pid with SIGTERM.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { TETHER_BIN } from './exec-servers';

export interface TetherForward {
  /** The first line of stdout: `127.0.0.1:PORT`. */
  address: string;
  stderr: () => string;
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

export async function tetherForward(args: string[], timeoutMs = 30_000): Promise<TetherForward> {
  const child = spawn(process.execPath, [TETHER_BIN, 'forward', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const lines = readline.createInterface({ input: child.stdout });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tether forward printed nothing: ${stderr}`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`tether forward exited with ${code}: ${stderr}`));
    });
  });
  return {
    address,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
