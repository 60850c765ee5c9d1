// Which data xterm emits may go to the process while it parses replayed output (output some
// terminal already showed, see OutputFlow): xterm's own answers and reports are dropped then, what
// the user types is not.
import type { Terminal } from '@xterm/xterm';

/** DOM events in whose dispatch xterm turns the user's keys, text input and pastes into data. */
const TYPING_EVENTS = new Set(['keydown', 'keypress', 'input', 'compositionend', 'paste']);

export class ReplayInputGuard {
  /**
   * One entry per write handed to xterm and not yet parsed, oldest first: whether it is replayed
   * output. xterm parses writes in order and calls a write's callback right after parsing it,
   * before the next one starts, so the first entry is the write being parsed (or next to be).
   */
  private readonly unparsed: boolean[] = [];
  /** True while our own clipboard paste hands its text to xterm (no DOM event is under way then). */
  private pasting = false;

  constructor(private readonly terminal: Terminal) {}

  /** Hands `data` to xterm, noting until it is parsed whether it is `replayed`; `done` once parsed. */
  write(data: string | Uint8Array, replayed: boolean, done: () => void): void {
    this.unparsed.push(replayed);
    this.terminal.write(data, () => {
      this.unparsed.shift();
      done();
    });
  }

  /** Pastes `text` into xterm as typed by the user (bracketed when the program asked for it). */
  paste(text: string): void {
    this.pasting = true;
    try {
      this.terminal.paste(text);
    } finally {
      this.pasting = false;
    }
  }

  /** Whether data xterm emits now goes to the process: none is parsing replayed output, or the user typed it. */
  passes(): boolean {
    return !this.replayInParser() || this.typedNow();
  }

  /**
   * True when xterm's data comes from the user typing or pasting now: xterm turns a key, input or
   * paste event into data inside that event's dispatch, while its answers to queries come from its
   * parser, which runs from a timer, never inside a DOM event.
   */
  private typedNow(): boolean {
    if (this.pasting) return true;
    const type = window.event?.type;
    return type !== undefined && TYPING_EVENTS.has(type);
  }

  /** True from the moment xterm may start parsing a replayed write until it has parsed the last one. */
  private replayInParser(): boolean {
    return this.unparsed[0] === true;
  }
}
