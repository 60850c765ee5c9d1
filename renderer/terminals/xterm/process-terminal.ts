// One xterm terminal bound to one process: renders its output through OutputFlow, sends keystrokes
// straight to processes.write (drawn at once by PredictiveEcho on a slow link), fits itself to its pane and propagates the size. It outlives pane
// re-mounts (its element moves between hosts) and is disposed when no pane shows the process.
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import type { ProcessKey, Settings } from '../../../shared/ipc';
import { invoke } from '../../ipc/ipc-client';
import { requestOpenLink } from '../../web-links/link-actions';
import { hardwareWebglAvailable } from './gpu-probe';
import { OutputFlow } from './output-flow';
import { ReplayInputGuard } from './replay-input-guard';
import { TerminalInput } from './terminal-input';
import { terminalOptions } from './terminal-options';
import { TerminalBell } from './bell';
import { errorMessage } from '../../../shared/error-message';
import { clipboardAction } from './clipboard-keys';
import { CommandMarks } from './command-marks';
import { absolutePath, fileLineLinks } from '../../web-links/file-links';
import { openEditor } from '../../editor/editor-actions';
import { cwdOf } from '../../processes/processes-store';
import { PredictiveEcho } from './predictive-echo';
import { TypingCursor } from './typing-cursor';
import { useEnvironments } from '../../environments/environments-store';

export interface TerminalStatus {
  /** The server could not apply the pane's size (codex without resize): the size is fixed. */
  sizeFixed: boolean;
  renderer: 'webgl' | 'dom';
  inputError: string | null;
}

/** How a terminal search matches its term. */
export interface TerminalSearchMatch {
  caseSensitive: boolean;
  regex: boolean;
  wholeWord: boolean;
}

/** Pixels of the strip beside the scrollbar that shows where command marks and search matches are. */
const OVERVIEW_RULER_WIDTH = 8;

let canvas2d: boolean | undefined;

function canvas2dAvailable(): boolean {
  canvas2d ??= (() => {
    try {
      return document.createElement('canvas').getContext('2d') !== null;
    } catch {
      return false;
    }
  })();
  return canvas2d;
}

const PLAIN_SEARCH: TerminalSearchMatch = { caseSensitive: false, regex: false, wholeWord: false };

export class ProcessTerminal {
  readonly element: HTMLDivElement;
  readonly terminal: Terminal;
  private readonly fitAddon = new FitAddon();
  private readonly searchAddon = new SearchAddon();
  private lastSearchMatch: TerminalSearchMatch = PLAIN_SEARCH;
  private readonly flow: OutputFlow;
  private opened = false;
  private webgl: WebglAddon | null = null;
  private lastSize: { cols: number; rows: number } | null = null;
  private status: TerminalStatus = { sizeFixed: false, renderer: 'dom', inputError: null };
  private readonly statusListeners = new Set<(s: TerminalStatus) => void>();
  private copyOnSelect: boolean;
  private bellSetting: Settings['bell'];
  private readonly bell: TerminalBell;
  private readonly input: TerminalInput;
  private readonly replayGuard: ReplayInputGuard;
  /** The shell's commands as this terminal shows them (shell integration). */
  readonly marks: CommandMarks;
  private predictiveEcho: Settings['predictiveEcho'];
  /** Sits at the xterm boundary: sees every key typed and every host write into the terminal. */
  private readonly echo: PredictiveEcho;
  /** Keeps a blinking cursor still while keys come (see typing-cursor). */
  private readonly typingCursor: TypingCursor;

  constructor(
    readonly key: ProcessKey,
    settings: Settings,
  ) {
    this.element = document.createElement('div');
    this.element.className = 'terminal-host';
    this.copyOnSelect = settings.copyOnSelect;
    this.bellSetting = settings.bell;
    this.bell = new TerminalBell(key, this.element);
    this.input = new TerminalInput(key, {
      written: () => this.status.inputError && this.setStatus({ inputError: null }),
      failed: (error) => this.setStatus({ inputError: errorMessage(error) }),
    });
    this.terminal = new Terminal({
      ...terminalOptions(settings),
      allowProposedApi: true,
      // The strip beside the scrollbar where command marks and search matches show; xterm draws it
      // on a 2D canvas, without which (jsdom) the terminal goes without it.
      ...(canvas2dAvailable() ? { overviewRuler: { width: OVERVIEW_RULER_WIDTH } } : {}),
      // OSC 8 hyperlinks (text that can hide its target) ask like any other link; xterm offers
      // only http(s) ones as links.
      linkHandler: { activate: (_event, uri) => requestOpenLink(uri, key.envId) },
    });
    this.replayGuard = new ReplayInputGuard(this.terminal);
    this.typingCursor = new TypingCursor(this.element);
    this.predictiveEcho = settings.predictiveEcho;
    this.echo = new PredictiveEcho(this.terminal, {
      mode: () => this.predictiveEcho,
      rttMs: () => useEnvironments.getState().byId[key.envId]?.health?.lastRttMs ?? null,
    });
    this.terminal.loadAddon(this.fitAddon);
    this.terminal.loadAddon(this.searchAddon);
    this.terminal.loadAddon(new WebLinksAddon((_event, uri) => requestOpenLink(uri, key.envId)));
    // A click on a command's mark selects its output.
    this.marks = new CommandMarks(this.terminal, (command) => this.marks.selectOutput(command));
    this.registerFileLinks();
    // While replayed output is parsed (output some terminal already showed, see OutputFlow), what
    // xterm produces by itself is dropped: its answers to queries in it (DA, cursor reports, colour
    // queries...) were given when it was first shown,
    // and mouse and focus reports would be encoded for modes the program set back then. What the
    // user types still goes out: right after a restart is when people type at once.
    this.terminal.onData((data) => {
      if (!this.replayGuard.passes()) return;
      this.typingCursor.typed();
      this.echo.typed(data);
      this.input.send(data);
    });
    this.terminal.onBell(() => this.bell.ring(this.bellSetting));
    this.terminal.onBinary((data) => {
      if (!this.replayGuard.passes()) return;
      this.typingCursor.typed();
      this.echo.typed(data);
      this.input.sendBinary(data);
    });
    // Copy and paste keys are the terminal's, not the program's (see clipboard-keys).
    this.terminal.attachCustomKeyEventHandler((event) => {
      const action = clipboardAction(event);
      if (!action) return true;
      event.preventDefault();
      if (action === 'copy') void this.copySelection();
      else void this.pasteFromClipboard();
      return false;
    });
    this.terminal.onSelectionChange(() => {
      const text = this.terminal.getSelection();
      if (this.copyOnSelect && text) navigator.clipboard?.writeText(text).catch(() => undefined);
    });
    this.flow = new OutputFlow({
      sink: {
        write: (data, done, replayed) => {
          this.echo.hostWriting();
          this.replayGuard.write(data, replayed, () => {
            this.echo.hostWritten();
            done();
          });
        },
      },
      replay: (afterSeq) => invoke('processes.replay', { ...key, afterSeq }),
      ack: (deltaBytes, shownThroughSeq) => {
        invoke('processes.ack', {
          ...key,
          deltaBytes,
          ...(shownThroughSeq !== undefined ? { shownThroughSeq } : {}),
        }).catch(() => undefined);
      },
    });
  }

  /** Shows the terminal inside `host`; the first attach opens xterm and starts the replay. */
  attach(host: HTMLElement): void {
    host.appendChild(this.element);
    this.paintFrame();
    if (!this.opened) {
      this.opened = true;
      this.terminal.open(this.element);
      this.enableWebgl();
      void this.flow.start();
    }
    this.fit();
  }

  /** Fills in output missed while the bridge to the AppService was down. */
  catchUp(): void {
    void this.flow.catchUp();
  }

  detach(host: HTMLElement): void {
    if (this.element.parentElement === host) host.removeChild(this.element);
  }

  pushLive(events: Parameters<OutputFlow['pushLive']>[0]): void {
    this.flow.pushLive(events);
  }

  /** Fits xterm to its host and tells the process about a changed size. */
  fit(): void {
    if (!this.opened || !this.element.isConnected) return;
    const dims = this.fitAddon.proposeDimensions();
    if (!dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows) || dims.cols < 1 || dims.rows < 1)
      return;
    if (dims.cols !== this.terminal.cols || dims.rows !== this.terminal.rows) {
      // A resize reflows the line: predictions drawn in it are taken back first.
      if (this.echo.withdraw(() => this.fit())) return;
      this.terminal.resize(dims.cols, dims.rows);
    }
    if (this.lastSize?.cols === dims.cols && this.lastSize.rows === dims.rows) return;
    this.lastSize = { cols: dims.cols, rows: dims.rows };
    invoke('processes.resize', { ...this.key, cols: dims.cols, rows: dims.rows }).then(
      (result) => this.setStatus({ sizeFixed: !result.applied }),
      () => undefined,
    );
  }

  focus(): void {
    this.terminal.focus();
  }

  find(term: string, direction: 'next' | 'previous', match: TerminalSearchMatch = PLAIN_SEARCH): boolean {
    if (!term) {
      this.searchAddon.clearDecorations();
      return false;
    }
    // The addon only recounts when the term changes (it compares the new options with themselves),
    // so a change of case, word or regex matching starts a fresh search.
    if (
      match.caseSensitive !== this.lastSearchMatch.caseSensitive ||
      match.regex !== this.lastSearchMatch.regex ||
      match.wholeWord !== this.lastSearchMatch.wholeWord
    )
      this.searchAddon.clearDecorations();
    this.lastSearchMatch = match;
    const options = {
      ...match,
      // Decorations are also what makes the addon count the matches (onSearchResults).
      decorations: { matchOverviewRuler: '#d4a017', activeMatchColorOverviewRuler: '#ff8800' },
    };
    return direction === 'next'
      ? this.searchAddon.findNext(term, options)
      : this.searchAddon.findPrevious(term, options);
  }

  /** The current match's index (-1 past the addon's highlight limit) and the number of matches. */
  onSearchResults(listener: (results: { index: number; count: number }) => void): () => void {
    const subscription = this.searchAddon.onDidChangeResults((e) =>
      listener({ index: e.resultIndex, count: e.resultCount }),
    );
    return () => subscription.dispose();
  }

  clearSearch(): void {
    this.searchAddon.clearDecorations();
  }

  hasSelection(): boolean {
    return this.terminal.hasSelection();
  }

  /** Copies the selection to the clipboard; false when nothing is selected. */
  async copySelection(): Promise<boolean> {
    const text = this.terminal.getSelection();
    if (!text) return false;
    await navigator.clipboard.writeText(text);
    return true;
  }

  /** Pastes the clipboard's text as if typed (bracketed when the program asked for it). */
  async pasteFromClipboard(): Promise<void> {
    const text = await navigator.clipboard.readText();
    if (!text) return;
    this.replayGuard.paste(text);
  }

  /** Scrolls to the previous or next command (shell integration); false when there is none. */
  jumpToCommand(direction: 'previous' | 'next'): boolean {
    return this.marks.jump(direction);
  }

  /** Selects the current command's output (the one jumped to, else the last); false without one. */
  selectCommandOutput(): boolean {
    const command = this.marks.target();
    return command ? this.marks.selectOutput(command) : false;
  }

  /** Copies the current command's output to the clipboard; false without one. */
  async copyCommandOutput(): Promise<boolean> {
    const command = this.marks.target();
    if (!command) return false;
    await navigator.clipboard.writeText(this.marks.outputText(command));
    return true;
  }

  /** Types the current command's line again, when the shell is at its prompt; false otherwise. */
  rerunCommand(): boolean {
    const command = this.marks.target();
    const last = this.marks.commands[this.marks.commands.length - 1];
    // At a prompt: the last mark is a prompt that ran nothing yet.
    if (!command?.line || !last || last.output) return false;
    this.input.send(`${command.line}\r`);
    return true;
  }

  selectAll(): void {
    this.terminal.selectAll();
  }

  /** Clears the scrollback and the screen above the prompt (the program's screen is its own). */
  clear(): void {
    this.terminal.clear();
  }

  /**
   * Applies changed settings to the live terminal (same buffer, same process): xterm re-measures
   * its cells, and a new font or spacing refits the pane to the rows and columns that now fit.
   */
  applySettings(settings: Settings): void {
    this.copyOnSelect = settings.copyOnSelect;
    this.bellSetting = settings.bell;
    this.predictiveEcho = settings.predictiveEcho;
    this.echo.modeChanged();
    const next = terminalOptions(settings);
    const options = this.terminal.options as Record<string, unknown>;
    // Assigning an option, even an equal one, can make xterm redo work (a theme re-creates its
    // colour tables), so only what changed is set.
    for (const [name, value] of Object.entries(next)) {
      if (JSON.stringify(options[name]) !== JSON.stringify(value)) options[name] = value;
    }
    this.paintFrame();
    this.fit();
  }

  getStatus(): TerminalStatus {
    return this.status;
  }

  onStatus(listener: (s: TerminalStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  dispose(): void {
    this.flow.dispose();
    this.echo.dispose();
    this.typingCursor.dispose();
    this.statusListeners.clear();
    this.terminal.dispose();
    this.element.remove();
  }

  /** `path:line` in the output opens the editor there (relative to the command's folder). */
  private registerFileLinks(): void {
    this.terminal.registerLinkProvider({
      provideLinks: (y, callback) => {
        const text = this.terminal.buffer.active.getLine(y - 1)?.translateToString(true) ?? '';
        const folder = this.marks.commandAtLine(y - 1)?.cwd ?? cwdOf(this.key);
        const links = fileLineLinks(text).flatMap((link) => {
          const path = absolutePath(link.path, folder);
          if (!path) return [];
          return [
            {
              range: { start: { x: link.start + 1, y }, end: { x: link.end, y } },
              text: text.slice(link.start, link.end),
              activate: () => void openEditor(this.key.envId, path, { line: link.line }),
            },
          ];
        });
        callback(links.length ? links : undefined);
      },
    });
  }

  private enableWebgl(): void {
    if (!hardwareWebglAvailable()) {
      this.setStatus({ renderer: 'dom' });
      return;
    }
    try {
      const addon = new WebglAddon();
      addon.onContextLoss(() => {
        addon.dispose();
        this.webgl = null;
        this.setStatus({ renderer: 'dom' });
      });
      this.terminal.loadAddon(addon);
      this.webgl = addon;
      this.setStatus({ renderer: 'webgl' });
    } catch {
      // No WebGL here (headless, blocklisted GPU): xterm keeps its DOM renderer.
      this.webgl?.dispose();
      this.webgl = null;
      this.setStatus({ renderer: 'dom' });
    }
  }

  /** The margin around the cells (the host) takes the scheme's background, so the pane is one colour. */
  private paintFrame(): void {
    const host = this.element.parentElement;
    if (host) host.style.backgroundColor = this.terminal.options.theme?.background ?? '';
  }

  private setStatus(patch: Partial<TerminalStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.statusListeners) listener(this.status);
  }
}
