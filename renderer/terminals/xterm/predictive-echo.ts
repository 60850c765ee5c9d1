// Predictive local echo, as mosh does it: on a slow link, printable keys typed at a shell prompt
// are drawn at once (underlined) instead of a round trip later, and the host's output always wins.
// Before every host write the drawn predictions are taken back (cursor back, cells erased), so the
// host's bytes land on exactly the screen the host believes in; once xterm has parsed them, each
// prediction is checked against the cells the host wrote: confirmed, still pending, or wrong.
import type { IDecoration, IDisposable, IMarker, Terminal } from '@xterm/xterm';
import type { Settings } from '../../../shared/ipc';

export type PredictiveEchoMode = Settings['predictiveEcho'];

/** 'auto' predicts on links slower than this (a round trip shorter than it already feels local). */
export const PREDICT_ABOVE_RTT_MS = 30;
/** Predictions the host has not echoed within this many round trips are taken back (echo is off). */
const TIMEOUT_RTTS = 4;
/** ...but never sooner than this: a busy host or a jittery link must not look like a password prompt. */
export const MIN_TIMEOUT_MS = 500;
/** How soon a due timeout looks again while host output is still being parsed. */
const RECHECK_MS = 5;
/** The round trip assumed for the timeout when the link has not measured one yet. */
const UNKNOWN_RTT_MS = 100;

/** The link to the host and the user's choice, asked afresh at every keystroke. */
export interface PredictiveEchoDeps {
  mode: () => PredictiveEchoMode;
  /** The environment's last measured round trip, null when none was measured yet. */
  rttMs: () => number | null;
  /** Overrides MIN_TIMEOUT_MS (tests). */
  minTimeoutMs?: number;
}

interface Prediction {
  ch: string;
  col: number;
  at: number;
}

/** Where the host's cursor was when xterm last held nothing but host output, and how far the line is blank. */
interface Anchor {
  line: number;
  col: number;
  /** Blank, default-attribute cells from `col` on that a prediction may use (the last column never). */
  room: number;
}

/** One printable character drawn one cell wide: ASCII and Latin letters (no wide or combining ones). */
const PREDICTABLE = /^[\x20-\x7e\u00a0-\u024f]$/u;
const BACKSPACES = new Set(['\x7f', '\b']);
const CSI = '\x1b[';
/** The column of a prediction typed while host output was being parsed, until it is (see record). */
const FLOATING = -1;

export class PredictiveEcho {
  /**
   * The keys typed and not yet echoed, in order, one cell each from `group.col` on one line. The
   * group is drawn (`shown`) once a prediction of its context was confirmed, so the first key after
   * a prompt (maybe a password's) is never drawn, only checked.
   */
  private pending: Prediction[] = [];
  private groupLine: IMarker | null = null;
  /** The first column the group may not reach (the blank room the host's line had). */
  private groupLimit = 0;
  private groupEpoch = 0;
  private shown = false;
  /** A barrier since the group began: keys typed now do not join it (they are not predicted). */
  private closed = false;
  /** Bumped by every key that is not predicted (Enter, Tab, arrows, pastes...): a new context. */
  private epoch = 0;
  /** Whether a prediction of the current epoch was confirmed: new groups are drawn at once. */
  private trusted = false;
  /** Cells drawn at the xterm cursor by the writes handed to xterm so far (parsed or not). */
  private drawn = 0;
  private decoration: IDecoration | undefined;
  private hostWrites = 0;
  private anchor: Anchor | null = null;
  /** Whether erasing a cell leaves it as the host had it: the host's background is the default. */
  private hostBackgroundDefault = true;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the host last confirmed a prediction: echoes still coming in keep the rest alive. */
  private lastConfirmedAt = 0;
  private readonly hooks: IDisposable[];

  constructor(
    private readonly terminal: Terminal,
    private readonly deps: PredictiveEchoDeps,
  ) {
    const parser = terminal.parser;
    // Handlers that return false leave the sequence to xterm's own: they only watch.
    this.hooks = [
      parser.registerCsiHandler({ final: 'm' }, (params) => {
        this.hostBackgroundDefault = backgroundDefaultAfter(params, this.hostBackgroundDefault);
        return false;
      }),
      // Restoring the cursor restores attributes we cannot see; a reset restores the defaults.
      parser.registerEscHandler({ final: '8' }, () => {
        this.hostBackgroundDefault = false;
        return false;
      }),
      parser.registerEscHandler({ final: 'c' }, () => {
        this.hostBackgroundDefault = true;
        return false;
      }),
      parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
        this.hostBackgroundDefault = true;
        return false;
      }),
      // A resize may reflow the line: where the host's cursor is is known again after its next output.
      terminal.onResize(() => {
        this.anchor = null;
        this.mismatch();
      }),
    ];
  }

  /** Whether predictions are drawn in the terminal now (for the status line and tests). */
  get drawing(): boolean {
    return this.drawn > 0;
  }

  /** What the user typed (xterm's onData), just before it goes to the process. */
  typed(data: string): void {
    if (!this.enabled()) {
      this.barrier();
      if (this.deps.mode() === 'never') this.dropAll();
      return;
    }
    if (BACKSPACES.has(data) && this.pending.length > 0 && !this.closed) {
      // Erasing a key not echoed yet: the host will echo it and erase it; show the outcome now.
      this.pending.pop();
      if (this.pending.length === 0) this.endGroup();
      this.redraw();
      return;
    }
    if (!PREDICTABLE.test(data) || !this.record(data)) this.barrier();
  }

  /** Host output is about to be written to xterm: the predictions step aside first. */
  hostWriting(): void {
    this.hostWrites += 1;
    this.anchor = null;
    this.undraw();
  }

  /** xterm has parsed a host write (its write callback). */
  hostWritten(): void {
    this.hostWrites -= 1;
    if (this.hostWrites > 0) return;
    // Everything handed to xterm is parsed now (the predictions were taken back before the host's
    // writes and not drawn since), so the buffer is the host's screen: check against it.
    this.anchor = this.readAnchor();
    this.check();
    this.redraw();
  }

  /**
   * Takes drawn predictions back before something that must see the host's screen (a resize
   * reflows the line); returns false when nothing was drawn, else calls `then` once that is parsed.
   */
  withdraw(then: () => void): boolean {
    if (this.drawn === 0) return false;
    this.dropAll();
    this.barrier();
    this.terminal.write('', then);
    return true;
  }

  /** The user's setting changed. */
  modeChanged(): void {
    if (this.deps.mode() === 'never') this.dropAll();
  }

  dispose(): void {
    this.clearTimer();
    this.decoration?.dispose();
    this.groupLine?.dispose();
    for (const hook of this.hooks) hook.dispose();
  }

  private enabled(): boolean {
    const mode = this.deps.mode();
    if (mode === 'never') return false;
    if (mode === 'auto') {
      const rtt = this.deps.rttMs();
      if (rtt === null || rtt <= PREDICT_ABOVE_RTT_MS) return false;
    }
    // A full-screen program, or one that reads the mouse, draws its own screen: nothing to predict.
    const modes = this.terminal.modes;
    return (
      this.terminal.buffer.active.type === 'normal' &&
      modes.mouseTrackingMode === 'none' &&
      !modes.insertMode &&
      !modes.originMode
    );
  }

  /** Adds `ch` to the group; false when it cannot be predicted safely. */
  private record(ch: string): boolean {
    if (this.closed) return false;
    const now = performance.now();
    if (this.pending.length === 0) {
      this.groupEpoch = this.epoch;
      this.shown = this.trusted;
      const anchor = this.anchor;
      if (this.hostWrites > 0) {
        // Host output (not an echo: every key typed so far is confirmed) is still being parsed:
        // the group takes its place at the host's cursor once it is (see check).
        this.pending.push({ ch, col: FLOATING, at: now });
        this.armTimer();
        return true;
      }
      if (!anchor || !this.place(anchor, 1)) return false;
      this.pending.push({ ch, col: anchor.col, at: now });
    } else {
      const last = this.pending[this.pending.length - 1]!;
      if (last.col === FLOATING) this.pending.push({ ch, col: FLOATING, at: now });
      else if (last.col + 1 >= this.groupLimit) return false;
      else this.pending.push({ ch, col: last.col + 1, at: now });
    }
    this.armTimer();
    this.redraw();
    return true;
  }

  /** Anchors the group at the host's cursor, if `count` cells fit there; false when they do not. */
  private place(anchor: Anchor, count: number): boolean {
    if (anchor.room < count || !this.hostBackgroundDefault) return false;
    this.groupLine?.dispose();
    this.groupLine = this.terminal.registerMarker(anchor.line - this.cursorLine()) ?? null;
    if (!this.groupLine) return false;
    this.groupLimit = anchor.col + anchor.room;
    return true;
  }

  /** A key that is not predicted: its effect is unknown, so what follows is checked before it is drawn. */
  private barrier(): void {
    this.epoch += 1;
    this.trusted = false;
    if (this.pending.length > 0) this.closed = true;
  }

  /** Confirms the predictions the host echoed, keeps the ones still to come, drops all on a mismatch. */
  private check(): void {
    if (this.pending.length === 0) return;
    if (this.pending[0]!.col === FLOATING) {
      const anchor = this.anchor;
      if (!anchor || !this.place(anchor, this.pending.length)) this.mismatch();
      else this.pending.forEach((p, i) => (p.col = anchor.col + i));
      return;
    }
    const line = this.groupLine?.line ?? -1;
    const buffer = this.terminal.buffer.active;
    const row = line >= 0 ? buffer.getLine(line) : undefined;
    const cursorLine = this.cursorLine();
    if (!row || buffer.type !== 'normal') {
      this.mismatch();
      return;
    }
    let confirmed = 0;
    for (const p of this.pending) {
      const chars = row.getCell(p.col)?.getChars() ?? '';
      const passed = cursorLine > line || (cursorLine === line && buffer.cursorX > p.col);
      if (chars === p.ch && passed) {
        confirmed += 1;
        continue;
      }
      if (chars !== '') {
        this.mismatch();
        return;
      }
      break;
    }
    if (confirmed > 0) {
      this.pending.splice(0, confirmed);
      this.lastConfirmedAt = performance.now();
      // The host echoes in this context: the rest of the group, and new groups, are drawn.
      this.shown = true;
      if (this.groupEpoch === this.epoch) this.trusted = true;
    }
    if (this.pending.length === 0) {
      this.endGroup();
      return;
    }
    // The host's cursor must stand where the next prediction goes, on a line blank from there.
    const anchor = this.anchor;
    const first = this.pending[0]!;
    const last = this.pending[this.pending.length - 1]!;
    if (
      !anchor ||
      anchor.line !== line ||
      anchor.col !== first.col ||
      last.col >= anchor.col + anchor.room ||
      !this.hostBackgroundDefault
    )
      this.mismatch();
    else {
      this.groupLimit = anchor.col + anchor.room;
      this.armTimer();
    }
  }

  /** The host disagreed (or never answered): its output stands, and nothing is drawn until it echoes again. */
  private mismatch(): void {
    this.dropAll();
    this.barrier();
  }

  private dropAll(): void {
    this.pending = [];
    this.endGroup();
    this.redraw();
  }

  private endGroup(): void {
    this.groupLine?.dispose();
    this.groupLine = null;
    this.closed = false;
    this.clearTimer();
  }

  /** Makes what is drawn match the shown group: takes the old drawing back, draws the group anew. */
  private redraw(): void {
    // While host output is queued in xterm the cursor's place is not known: draw after it.
    if (this.hostWrites > 0) return;
    const want = this.shown ? this.pending.map((p) => p.ch).join('') : '';
    if (this.drawn === 0 && want === '') return;
    this.terminal.write(this.undoSequence() + want);
    this.drawn = want.length;
    this.decorate();
  }

  private undraw(): void {
    if (this.drawn === 0) return;
    this.terminal.write(this.undoSequence());
    this.drawn = 0;
    this.decorate();
  }

  /**
   * Back over the drawn cells and erase them: they were blank with default attributes, and the
   * host's background is the default, so erasing leaves them exactly as the host had them.
   */
  private undoSequence(): string {
    return this.drawn === 0 ? '' : `${CSI}${this.drawn}D${CSI}${this.drawn}X`;
  }

  /** Underlines the drawn predictions, as mosh does, without touching the cells' attributes. */
  private decorate(): void {
    this.decoration?.dispose();
    this.decoration = undefined;
    if (this.drawn === 0 || !this.groupLine) return;
    this.decoration = this.terminal.registerDecoration({
      marker: this.groupLine,
      x: this.pending[0]!.col,
      width: this.drawn,
      layer: 'top',
    });
    this.decoration?.onRender((element) => {
      element.classList.add('predicted-echo');
      element.style.borderBottom = `1px solid ${this.terminal.options.theme?.foreground ?? 'currentColor'}`;
    });
  }

  private readAnchor(): Anchor | null {
    const buffer = this.terminal.buffer.active;
    if (buffer.type !== 'normal') return null;
    const line = this.cursorLine();
    const row = buffer.getLine(line);
    const col = buffer.cursorX;
    if (!row) return null;
    let room = 0;
    // The last column stays free: a character there would leave the cursor waiting to wrap.
    for (let x = col; x < this.terminal.cols - 1; x += 1) {
      const cell = row.getCell(x);
      if (!cell || cell.getChars() !== '' || cell.getWidth() !== 1 || !cell.isAttributeDefault()) break;
      room += 1;
    }
    return { line, col, room };
  }

  private cursorLine(): number {
    const buffer = this.terminal.buffer.active;
    return buffer.baseY + buffer.cursorY;
  }

  /**
   * Times the oldest prediction out when the host neither echoed it nor any other for a few round
   * trips (counted from the later of its keystroke and the last echo, as keys typed in a burst may
   * reach the host one round trip after another).
   */
  private armTimer(): void {
    if (this.timer !== null || this.pending.length === 0) return;
    const rtt = this.deps.rttMs() ?? UNKNOWN_RTT_MS;
    const limit = Math.max(TIMEOUT_RTTS * rtt, this.deps.minTimeoutMs ?? MIN_TIMEOUT_MS);
    const since = () => Math.max(this.pending[0]?.at ?? 0, this.lastConfirmedAt);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.pending.length === 0) return;
        // Output still queued in xterm may hold the echo: judge once it is parsed.
        if (this.hostWrites > 0 || performance.now() - since() < limit) {
          this.armTimer();
          return;
        }
        this.mismatch();
      },
      Math.max(RECHECK_MS, since() + limit - performance.now()),
    );
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * Whether the background is the default after an SGR sequence (`CSI … m`) with `params`, from
 * `before`: only resets make it so, any background colour (or one we cannot read) unmakes it.
 */
export function backgroundDefaultAfter(params: (number | number[])[], before: boolean): boolean {
  let result = before;
  for (let i = 0; i < params.length; i += 1) {
    const param = params[i]!;
    if (Array.isArray(param)) {
      // Colon sub-parameters carry one colour each: only a background one matters.
      if (param[0] === 48) result = false;
      continue;
    }
    if (param === 0 || param === 49) result = true;
    else if ((param >= 40 && param <= 47) || (param >= 100 && param <= 107)) result = false;
    else if (param === 38 || param === 48 || param === 58) {
      if (param === 48) result = false;
      // 5;n or 2;r;g;b follow as plain parameters when separated by semicolons.
      const form = params[i + 1];
      if (form === 5) i += 2;
      else if (form === 2) i += 4;
    }
  }
  return result;
}
