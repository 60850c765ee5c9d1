// The local terminal of `tether run --tty` and `tether ssh`, raw the way ssh makes it. Node's raw
// mode (libuv's) leaves output processing on, so ONLCR turns every "\n" the remote pty already sent
// as "\r\n" into "\r\r\n"; ssh clears OPOST as well, and so do we, with `stty -opost` on the same
// terminal. Leaving raw mode restores the terminal libuv saved before it first changed it.
import { spawnSync } from 'node:child_process';

/** Puts `stdin` (a TTY) in raw mode with output processing off; returns how to put it back. */
export function enterRawMode(stdin: NodeJS.ReadStream): () => void {
  stdin.setRawMode(true);
  // stty works on its standard input: hand it ours. A system without stty keeps ONLCR, no worse
  // than before.
  spawnSync('stty', ['-opost'], { stdio: [stdin, 'ignore', 'ignore'] });
  return () => {
    stdin.setRawMode(false);
  };
}
