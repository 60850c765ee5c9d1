// Runs `tether ARGS…` as a child with piped stdio for a test, collecting what it prints; it is
// killed by pid if it outlives `timeoutMs`.
import { spawn } from 'node:child_process';
import { TETHER_BIN } from './exec-servers';

export interface TetherCli {
  stdout: () => string;
  stderr: () => string;
  write: (text: string) => void;
  /** SIGTERM. */
  kill: () => void;
  exited: Promise<number | null>;
}

export function tetherCli(args: string[], timeoutMs = 60_000): TetherCli {
  const child = spawn(process.execPath, [TETHER_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    write: (text) => child.stdin.write(text),
    kill: () => child.kill('SIGTERM'),
    exited,
  };
}
