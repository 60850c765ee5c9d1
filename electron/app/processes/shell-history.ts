// A shell's command history, read from its output by the app: the OSC 133 marks and OSC 7 folder
// reports an integrated shell writes (shared/shell-marks.ts). The app sees every output byte once
// and in order, whichever windows show the shell, so it is the one owner of the history; the
// renderer's marks in the pane are its own reading of the same bytes.
import type { ShellCommand } from '../../../shared/ipc';
import { folderOfOsc7 } from '../../../shared/osc7';
import { shellMarkOf } from '../../../shared/shell-marks';
import { MAX_SHELL_COMMANDS } from '../limits';

const ESC = 0x1b;
const BEL = 0x07;
/** Longest OSC payload read; longer ones (a huge title) are skipped to their end. */
const MAX_OSC_BYTES = 8_192;

/** Finds OSC sequences (`ESC ] … BEL` or `ESC ] … ESC \`) in a byte stream split anywhere. */
export class OscScanner {
  private state: 'text' | 'escape' | 'osc' | 'oscEscape' = 'text';
  private payload: number[] = [];
  private overflow = false;

  constructor(private readonly found: (payload: string) => void) {}

  scan(bytes: Uint8Array): void {
    for (const byte of bytes) {
      switch (this.state) {
        case 'text':
          if (byte === ESC) this.state = 'escape';
          break;
        case 'escape':
          if (byte === 0x5d) {
            this.state = 'osc';
            this.payload = [];
            this.overflow = false;
          } else this.state = byte === ESC ? 'escape' : 'text';
          break;
        case 'osc':
          if (byte === BEL) this.end();
          else if (byte === ESC) this.state = 'oscEscape';
          else if (this.payload.length < MAX_OSC_BYTES) this.payload.push(byte);
          else this.overflow = true;
          break;
        case 'oscEscape':
          // ESC \ ends it; any other escape cancels it and starts anew.
          if (byte === 0x5c) this.end();
          else {
            this.state = 'escape';
            if (byte === 0x5d) {
              this.state = 'osc';
              this.payload = [];
              this.overflow = false;
            }
          }
          break;
      }
    }
  }

  private end(): void {
    this.state = 'text';
    if (!this.overflow) this.found(Buffer.from(this.payload).toString('utf8'));
    this.payload = [];
  }
}

/** The commands one shell ran, from its marks, with the folder each started in. */
export class ShellHistory {
  private list: ShellCommand[];
  private cwd: string | null = null;
  private readonly scanner = new OscScanner((payload) => this.osc(payload));
  private changed = false;
  /** When the bytes being read arrived. */
  private at = 0;

  constructor(restored: ShellCommand[] = []) {
    this.list = restored.slice(-MAX_SHELL_COMMANDS);
  }

  get commands(): ShellCommand[] | undefined {
    return this.list.length ? this.list : undefined;
  }

  /** Reads output bytes that arrived `at`; true when the history changed. */
  read(bytes: Uint8Array, at: number): boolean {
    this.at = at;
    this.changed = false;
    this.scanner.scan(bytes);
    return this.changed;
  }

  private osc(payload: string): void {
    if (payload.startsWith('7;')) {
      this.cwd = folderOfOsc7(payload.slice(2)) ?? this.cwd;
      return;
    }
    if (!payload.startsWith('133;')) return;
    const mark = shellMarkOf(payload.slice(4));
    if (!mark) return;
    const running = this.running();
    switch (mark.kind) {
      case 'outputStart':
        // A command that never reported its end (the shell was killed mid-way) ends here.
        if (running) this.end(running, null);
        this.list = [
          ...this.list,
          { line: mark.commandLine ?? '', cwd: this.cwd, startedAt: this.at, endedAt: null, exitCode: null },
        ].slice(-MAX_SHELL_COMMANDS);
        this.changed = true;
        return;
      case 'commandEnd':
        if (running) this.end(running, mark.exitCode);
        return;
      case 'promptStart':
        if (running) this.end(running, null);
        return;
      case 'commandStart':
        return;
    }
  }

  private running(): ShellCommand | undefined {
    const last = this.list[this.list.length - 1];
    return last && last.endedAt === null ? last : undefined;
  }

  private end(command: ShellCommand, exitCode: number | null): void {
    this.list = [...this.list.slice(0, -1), { ...command, endedAt: this.at, exitCode }];
    this.changed = true;
  }
}
