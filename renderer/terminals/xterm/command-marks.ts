// The commands of an integrated shell as one terminal shows them: xterm markers at each command's
// prompt, output start and end (from the OSC 133 marks in its output), and a mark per command in
// the pane's left margin and scrollbar, coloured by its exit status. Markers move with the
// scrollback and go when their lines do; a replay rebuilds them, since it parses the same output.
// What the app keeps (the history) is its own reading of the same marks (shell-history.ts).
import type { IDecoration, IMarker, Terminal } from '@xterm/xterm';
import { shellMarkOf } from '../../../shared/shell-marks';

export interface MarkedCommand {
  /** The first line of the command's prompt. */
  prompt: IMarker;
  /** The first line of its output (null until it runs). */
  output: IMarker | null;
  /** The line after its output (null until it ends). */
  end: IMarker | null;
  exitCode: number | null;
  line: string;
  /** The folder the shell reported before it ran (relative paths in its output start there). */
  cwd: string | null;
  decoration: IDecoration | undefined;
}

/** Scrollbar colours of a mark: no status yet (running, or none reported), success, failure. */
const RULER_COLOURS = { running: '#7f8c98', ok: '#3fa66b', failed: '#e0474c' };

export class CommandMarks {
  private readonly list: MarkedCommand[] = [];
  private cwd: string | null = null;
  /** The command jumped to last; Copy, Select and Run again act on it. */
  private current: MarkedCommand | null = null;

  constructor(
    private readonly terminal: Terminal,
    private readonly onMarkClick: (command: MarkedCommand) => void,
  ) {
    terminal.parser.registerOscHandler(133, (payload) => {
      const mark = shellMarkOf(payload);
      if (mark) this.onMark(mark);
      // Nothing to draw for xterm itself.
      return true;
    });
  }

  /** The folder the shell reported (OSC 7): where the next command runs. */
  setCwd(folder: string): void {
    this.cwd = folder;
  }

  get commands(): readonly MarkedCommand[] {
    return this.list;
  }

  /** The command Copy, Select and Run again act on: the one jumped to, else the last that ran. */
  target(): MarkedCommand | null {
    if (this.current && this.list.includes(this.current)) return this.current;
    return [...this.list].reverse().find((c) => c.output) ?? null;
  }

  /** The command whose output holds buffer line `line`, if any. */
  commandAtLine(line: number): MarkedCommand | null {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const command = this.list[i]!;
      if (command.output && command.output.line <= line && (!command.end || line < command.end.line))
        return command;
      if (command.prompt.line <= line) return null;
    }
    return null;
  }

  /**
   * Scrolls to the previous or next command's prompt and makes it the current one; false when
   * there is none that way.
   */
  jump(direction: 'previous' | 'next'): boolean {
    const ran = this.list.filter((c) => c.output && !c.prompt.isDisposed);
    const buffer = this.terminal.buffer.active;
    // From the current command, else from the cursor (previous) or the top of the viewport (next).
    const from =
      this.current && ran.includes(this.current)
        ? this.current.prompt.line
        : direction === 'previous'
          ? buffer.baseY + buffer.cursorY + 1
          : buffer.viewportY;
    const target =
      direction === 'previous'
        ? [...ran].reverse().find((c) => c.prompt.line < from)
        : ran.find((c) => c.prompt.line > from);
    if (!target) return false;
    this.select(target);
    this.terminal.scrollToLine(target.prompt.line);
    return true;
  }

  /** Makes `command` the current one (its mark is drawn as such). */
  select(command: MarkedCommand): void {
    const before = this.current;
    this.current = command;
    if (before && before !== command) this.decorate(before);
    this.decorate(command);
  }

  /** The text of `command`'s output, its wrapped lines joined. */
  outputText(command: MarkedCommand): string {
    const range = this.outputRange(command);
    if (!range) return '';
    const buffer = this.terminal.buffer.active;
    let text = '';
    for (let y = range.start; y <= range.end; y++) {
      const row = buffer.getLine(y);
      if (!row) break;
      const next = buffer.getLine(y + 1);
      text += row.translateToString(true);
      if (!(next?.isWrapped && y < range.end)) text += '\n';
    }
    return text.replace(/\n+$/, '\n');
  }

  /** Selects `command`'s output lines in the terminal; false when it printed nothing. */
  selectOutput(command: MarkedCommand): boolean {
    const range = this.outputRange(command);
    if (!range) return false;
    this.terminal.selectLines(range.start, range.end);
    return true;
  }

  private outputRange(command: MarkedCommand): { start: number; end: number } | null {
    if (!command.output || command.output.isDisposed) return null;
    const start = command.output.line;
    const buffer = this.terminal.buffer.active;
    let end = command.end && !command.end.isDisposed ? command.end.line - 1 : buffer.baseY + buffer.cursorY;
    // A last line the next prompt took over (zsh marks a partial line there) is not output.
    while (end >= start && !buffer.getLine(end)?.translateToString(true).trim()) end--;
    return end >= start ? { start, end } : null;
  }

  private onMark(mark: NonNullable<ReturnType<typeof shellMarkOf>>): void {
    const last = this.list[this.list.length - 1];
    switch (mark.kind) {
      case 'promptStart': {
        // A prompt after a prompt (an empty line, Ctrl+C at the prompt) ran nothing: it is replaced.
        if (last && !last.output) this.drop(last);
        const marker = this.terminal.registerMarker(0);
        if (!marker) return;
        const command: MarkedCommand = {
          prompt: marker,
          output: null,
          end: null,
          exitCode: null,
          line: '',
          cwd: null,
          decoration: undefined,
        };
        marker.onDispose(() => this.drop(command));
        this.list.push(command);
        return;
      }
      case 'commandStart':
        return;
      case 'outputStart': {
        if (!last || last.output) return;
        last.output = this.terminal.registerMarker(0) ?? null;
        last.line = mark.commandLine ?? this.promptText(last);
        last.cwd = this.cwd;
        // A new command: jumps start from the bottom again.
        this.current = null;
        this.decorate(last);
        return;
      }
      case 'commandEnd': {
        if (!last?.output || last.end) return;
        last.end = this.terminal.registerMarker(0) ?? null;
        last.exitCode = mark.exitCode;
        this.decorate(last);
        return;
      }
    }
  }

  /** A shell that gives no command line (fish 4's own marks): the prompt line's text. */
  private promptText(command: MarkedCommand): string {
    return this.terminal.buffer.active.getLine(command.prompt.line)?.translateToString(true).trim() ?? '';
  }

  private decorate(command: MarkedCommand): void {
    command.decoration?.dispose();
    const status =
      command.end === null || command.exitCode === null
        ? 'running'
        : command.exitCode === 0
          ? 'ok'
          : 'failed';
    const decoration = this.terminal.registerDecoration({
      marker: command.prompt,
      overviewRulerOptions: { color: RULER_COLOURS[status], position: 'left' },
    });
    command.decoration = decoration;
    if (!decoration) return;
    decoration.onRender((element) => {
      // xterm's own classes position the element: ours are added beside them.
      element.classList.add('command-mark', `command-${status}`);
      element.classList.toggle('current', command === this.current);
      const label =
        status === 'running' ? `${command.line} (running)` : `${command.line} (exit ${command.exitCode})`;
      // A tooltip only: the command's line and status are text in the pane and the Processes panel.
      element.title = label;
      element.onclick = () => {
        this.select(command);
        this.onMarkClick(command);
      };
    });
  }

  private drop(command: MarkedCommand): void {
    const index = this.list.indexOf(command);
    if (index < 0) return;
    this.list.splice(index, 1);
    command.decoration?.dispose();
    for (const marker of [command.prompt, command.output, command.end]) marker?.dispose();
    if (this.current === command) this.current = null;
  }
}
