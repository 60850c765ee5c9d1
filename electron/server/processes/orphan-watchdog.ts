// Makes sure no process group the server started outlives it, even when the server is SIGKILLed or
// crashes and its own shutdown never runs: a tiny /bin/sh watchdog, in its own session, reads the
// groups to guard from a pipe and kills every one still listed when the pipe breaks.
//
// Why a watchdog and not a wrapper per child: a wrapper would have to be the child's parent (its
// pid, exit status and signals relayed, the pty's session leader moved), and it still could not
// tell a dead server from a slow one without a pipe of its own. One watchdog per server holds one
// pipe, costs one small shell, and works alike for ptys and pipes, because both run in a process
// group of their own whose id is the leader's pid. The kernel closes the pipe on any exit, so the
// shell's `read` ends exactly when the server is gone. A grandchild that leaves its group (setsid)
// escapes the watchdog; only the server's own kills (managed-process.ts) collect the process tree.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../logger';

/** Where the server records the process groups it starts and drops. */
export interface ProcessGroupGuard {
  track(pgid: number): void;
  untrack(pgid: number): void;
}

/** For servers run without a watchdog (in-process tests): the server's own shutdown is all there is. */
export const UNGUARDED: ProcessGroupGuard = { track: () => {}, untrack: () => {} };

// One line per change: "+ PGID" or "- PGID". Parameter expansion keeps the list without forking.
// HUP and INT are ignored: they reach a terminal's whole session, and the watchdog must outlive
// the server to do its job; it has its own session anyway.
const WATCHDOG_SCRIPT = `
trap '' HUP INT
groups=' '
while read -r op pgid; do
  case $op in
    +) groups="$groups$pgid " ;;
    -) case $groups in *" $pgid "*) groups="\${groups%% $pgid *} \${groups#* $pgid }" ;; esac ;;
  esac
done
for pgid in $groups; do kill -KILL -"$pgid" 2>/dev/null; done
`;

export class OrphanWatchdog implements ProcessGroupGuard {
  private readonly child: ChildProcess;
  private broken = false;

  constructor(logger: Logger) {
    this.child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const fail = (error: Error): void => {
      if (this.broken) return;
      this.broken = true;
      logger.warn(
        `the orphan watchdog is not running (${error.message}); a killed server may leave processes behind`,
      );
    };
    this.child.on('error', fail);
    this.child.stdin?.on('error', fail);
    this.child.on('exit', () => fail(new Error('it exited')));
    // The watchdog must never keep the server alive.
    this.child.unref();
    (this.child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  /** The watchdog's pid, for tests that check it ends too. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  track(pgid: number): void {
    this.send(`+ ${pgid}\n`);
  }

  untrack(pgid: number): void {
    this.send(`- ${pgid}\n`);
  }

  private send(line: string): void {
    if (!this.broken && this.child.stdin?.writable) this.child.stdin.write(line);
  }
}
