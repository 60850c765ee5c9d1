// SshHooks for `tether ssh` and `tether run --ssh`: questions are asked on the controlling terminal
// (/dev/tty, like ssh itself, so piped stdin/stdout stay the process's), secrets without echo;
// install progress goes to stderr, the connect log only with --verbose. A prompt or a log line may
// be the host's words (a keyboard-interactive question, a host's stderr), so each is escaped.
import { openSync } from 'node:fs';
import tty from 'node:tty';
import { escapeForTerminal } from '../../../../shared/terminal-text';
import type { SshHooks, SshPrompt } from './ssh-hooks';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACES = new Set(['\u007f', '\b']);
/** Prompts and messages may span lines (ssh's host key question does). */
const LINES = { lineBreaks: true };

/** Reads one answer from the terminal; null on ^C, ^D on an empty line, or no terminal. */
function askOnTerminal(prompt: SshPrompt): Promise<string | null> {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    process.stderr.write(
      `tether: ssh asks "${escapeForTerminal(prompt.text.trim(), LINES)}", but there is no terminal to ask on.\n`,
    );
    return Promise.resolve(null);
  }
  const input = new tty.ReadStream(fd);
  const output = new tty.WriteStream(fd);
  const shown = escapeForTerminal(prompt.text, LINES);
  const text = shown.endsWith(' ') || shown.endsWith('\n') ? shown : `${shown} `;
  // Echo goes off before the question shows: an answer typed at once must not be echoed.
  input.setRawMode(true);
  output.write(text);
  return new Promise((resolve) => {
    let answer = '';
    const finish = (result: string | null): void => {
      input.setRawMode(false);
      input.removeAllListeners('data');
      output.write('\r\n', () => {
        input.destroy();
        output.destroy();
        resolve(result);
      });
    };
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(answer);
        if (char === CTRL_C || (char === CTRL_D && answer === '')) return finish(null);
        if (BACKSPACES.has(char)) {
          if (answer && !prompt.secret) output.write('\b \b');
          answer = answer.slice(0, -1);
        } else if (char >= ' ') {
          answer += char;
          if (!prompt.secret) output.write(char);
        }
      }
    });
  });
}

const megabytes = (bytes: number): string => (bytes / 1_048_576).toFixed(1);

export function terminalSshHooks(verbose: boolean): SshHooks {
  const say = (line: string): void => {
    process.stderr.write(`tether: ${escapeForTerminal(line, LINES)}\n`);
  };
  return {
    prompt: askOnTerminal,
    onStage: (event) => {
      if (event.stage === 'installing' && event.bytesTotal) {
        // One line that updates in place on a terminal; a log gets the start and the end.
        const line = `${event.detail ?? 'installing'}: ${megabytes(event.bytesSent ?? 0)} / ${megabytes(event.bytesTotal)} MB`;
        if (process.stderr.isTTY) process.stderr.write(`\rtether: ${escapeForTerminal(line)}\u001b[K`);
        else if (event.bytesSent === 0 || event.bytesSent === event.bytesTotal) say(line);
        if (process.stderr.isTTY && event.bytesSent === event.bytesTotal) process.stderr.write('\n');
      } else if (verbose) {
        say(`${event.stage}${event.detail ? `: ${event.detail}` : ''}`);
      }
    },
    onLog: (line) => {
      if (verbose) say(line);
    },
  };
}
