// What a pane writes for a process without a tty (its output arrives as stream `stdout`/`stderr`;
// a tty's arrives as `pty`). No line discipline turned its `\n` into `\r\n`, so a bare `\n` gets
// its `\r` here, and stderr is drawn in the scheme's red so it stands apart from stdout. Only the
// bytes handed to xterm change: the AppService's retained output (replays, downloads) stays as the
// process wrote it.
//
// Why not xterm's `convertEol`: it would do for the newlines (an existing `\r\n` stays one line
// break), but the stderr colour needs a pass over the bytes anyway, and that pass must know where
// escape sequences start and end — one pass does both, per stream.
//
// The two pipes are separate byte streams that interleave at chunk boundaries, so each stream has
// its own parser state: a chunk that ends inside an escape sequence (or a UTF-8 character) keeps
// that unfinished sequence back until the same stream's next chunk completes it, and no other
// stream's bytes — nor a colour switch — ever land inside it. Each stream also keeps its own
// colours (the SGR sequences since its last reset), restored whenever output switches to it.

type PipeStream = 'stdout' | 'stderr';

const ESC = 0x1b;
const LF = 0x0a;
const CR = 0x0d;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

/** SGR parameter of stderr's foreground: palette red, so it follows the colour scheme. */
export const STDERR_COLOUR_PARAM = '31';
const STDERR_COLOUR = `\x1b[${STDERR_COLOUR_PARAM}m`;
const RESET = '\x1b[0m';
/** An unfinished sequence longer than this (a big OSC 52 or sixel) is written as it comes. */
const MAX_HELD_BYTES = 4096;
/** SGR sequences kept per stream since its last reset; older ones are dropped (best effort). */
const MAX_SGR_KEPT = 16;

type Mode = 'ground' | 'escape' | 'csi' | 'string' | 'stringEscape' | 'utf8';

interface StreamState {
  mode: Mode;
  /** Continuation bytes still due in mode `utf8`. */
  utf8Left: number;
  /** Bytes of the unfinished sequence, held back until it completes. */
  held: number[];
  /** The held bytes outgrew MAX_HELD_BYTES: the rest of this sequence is written as it comes. */
  overflowed: boolean;
  /** The last byte written was `\r`, so a `\n` right after it needs none. */
  afterCr: boolean;
  /** SGR sequences since the stream's last reset (stderr's already rewritten), replayed on switch. */
  sgr: string[];
}

function freshState(): StreamState {
  return { mode: 'ground', utf8Left: 0, held: [], overflowed: false, afterCr: false, sgr: [] };
}

const encoder = new TextEncoder();

export class PipeOutput {
  private readonly streams: Record<PipeStream, StreamState> = { stdout: freshState(), stderr: freshState() };
  /** The stream whose colours xterm has now; null after a reset (xterm is at its defaults). */
  private current: PipeStream | null = null;

  /** The bytes to write for one chunk of `stream` (possibly none, while a sequence is unfinished). */
  translate(stream: PipeStream, chunk: Uint8Array): Uint8Array {
    const state = this.streams[stream];
    // Taken before the chunk's own SGRs are remembered, which it writes itself.
    const prefix = encoder.encode(this.switchPrefix(stream));
    const out = new ByteWriter(prefix.length + chunk.length + (chunk.length >> 3) + 16);
    out.copy(prefix, 0, prefix.length);
    let i = 0;
    while (i < chunk.length) {
      if (state.mode === 'ground') {
        // Plain text is copied in runs; only what may start a sequence or needs a \r is looked at.
        const start = i;
        while (i < chunk.length) {
          const byte = chunk[i] as number;
          if (byte === ESC || byte === LF || byte >= 0xc2) break;
          i += 1;
        }
        if (i > start) {
          out.copy(chunk, start, i);
          state.afterCr = chunk[i - 1] === CR;
        }
        if (i === chunk.length) break;
      }
      this.feed(stream, state, chunk[i] as number, out);
      i += 1;
    }
    if (state.held.length > MAX_HELD_BYTES) {
      out.pushAll(state.held);
      state.held.length = 0;
      state.overflowed = true;
    }
    if (out.length === prefix.length) return new Uint8Array(0);
    this.current = stream;
    return out.bytes();
  }

  /**
   * Before the pane writes its own line (exit, gap, failure): resets the colours so the line is
   * not drawn in stderr's, and forgets unfinished sequences after a gap (their ends were lost).
   */
  interrupt(options: { lostOutput: boolean }): string {
    if (options.lostOutput) {
      for (const state of Object.values(this.streams)) {
        state.mode = 'ground';
        state.held = [];
        state.overflowed = false;
      }
    }
    if (this.current === null) return '';
    this.current = null;
    return RESET;
  }

  /** What takes xterm from the current stream's colours to `stream`'s. */
  private switchPrefix(stream: PipeStream): string {
    if (this.current === stream) return '';
    // Leaving stderr, or a stream that set colours, needs a reset; stdout at its defaults does not.
    const leaving = this.current;
    const reset = leaving === 'stderr' || (leaving !== null && this.streams[leaving].sgr.length > 0);
    const colours = (stream === 'stderr' ? STDERR_COLOUR : '') + this.streams[stream].sgr.join('');
    return (reset ? RESET : '') + colours;
  }

  private feed(stream: PipeStream, state: StreamState, byte: number, out: ByteWriter): void {
    switch (state.mode) {
      case 'ground':
        if (byte === ESC) return this.begin(state, 'escape', byte, out);
        if (byte >= 0xc2 && byte <= 0xf4) {
          state.utf8Left = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
          return this.begin(state, 'utf8', byte, out);
        }
        return this.emit(state, byte, out);
      case 'utf8':
        if (byte >= 0x80 && byte <= 0xbf) {
          this.hold(state, byte, out);
          state.utf8Left -= 1;
          if (state.utf8Left === 0) this.finish(state, out);
          return;
        }
        // Not a continuation: the broken character ends here and this byte starts afresh.
        this.finish(state, out);
        return this.feed(stream, state, byte, out);
      case 'escape':
        if (byte === CAN || byte === SUB) return this.abort(state, byte, out);
        if (byte === ESC) {
          // A new ESC starts another sequence; the lone ESC before it goes out as it was.
          this.finish(state, out);
          return this.begin(state, 'escape', byte, out);
        }
        if (byte < 0x20) return this.control(state, byte, out);
        this.hold(state, byte, out);
        if (byte === 0x5b) state.mode = 'csi';
        else if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f)
          state.mode = 'string';
        else if (byte >= 0x30) this.finish(state, out);
        return;
      case 'csi':
        if (byte === CAN || byte === SUB) return this.abort(state, byte, out);
        if (byte === ESC) {
          this.finish(state, out);
          return this.begin(state, 'escape', byte, out);
        }
        if (byte < 0x20) return this.control(state, byte, out);
        this.hold(state, byte, out);
        if (byte >= 0x40 && byte <= 0x7e) this.finishCsi(stream, state, out);
        return;
      case 'string':
        if (byte === CAN || byte === SUB || byte === BEL) {
          this.hold(state, byte, out);
          return this.finish(state, out);
        }
        this.hold(state, byte, out);
        if (byte === ESC) state.mode = 'stringEscape';
        return;
      case 'stringEscape':
        if (byte === 0x5c) {
          this.hold(state, byte, out);
          return this.finish(state, out);
        }
        // ESC inside a string ends it and starts a new sequence with this byte.
        state.held.pop();
        this.finish(state, out);
        this.begin(state, 'escape', ESC, out);
        return this.feed(stream, state, byte, out);
    }
  }

  /** A plain byte in ground state; a bare `\n` gets its `\r`. */
  private emit(state: StreamState, byte: number, out: ByteWriter): void {
    if (byte === LF && !state.afterCr) out.push(CR);
    out.push(byte);
    state.afterCr = byte === CR;
  }

  /** A C0 control inside ESC/CSI: the terminal executes it there, so a `\n` gets its `\r` too. */
  private control(state: StreamState, byte: number, out: ByteWriter): void {
    if (byte === LF) this.hold(state, CR, out);
    this.hold(state, byte, out);
  }

  private begin(state: StreamState, mode: Mode, byte: number, out: ByteWriter): void {
    state.mode = mode;
    state.held.length = 0;
    state.overflowed = false;
    this.hold(state, byte, out);
  }

  private hold(state: StreamState, byte: number, out: ByteWriter): void {
    if (state.overflowed) out.push(byte);
    else state.held.push(byte);
  }

  private finish(state: StreamState, out: ByteWriter): void {
    out.pushAll(state.held);
    state.held.length = 0;
    state.mode = 'ground';
    state.overflowed = false;
    state.afterCr = false;
  }

  private abort(state: StreamState, byte: number, out: ByteWriter): void {
    this.hold(state, byte, out);
    this.finish(state, out);
  }

  /** A complete CSI: an SGR is remembered for the stream, and on stderr keeps stderr's colour. */
  private finishCsi(stream: PipeStream, state: StreamState, out: ByteWriter): void {
    const held = state.held;
    if (state.overflowed || held[held.length - 1] !== 0x6d) return this.finish(state, out);
    // Only digits, ';' and ':' between the ESC [ and the m (no private marker, no C0 inside).
    for (let k = 2; k < held.length - 1; k += 1) {
      const byte = held[k] as number;
      if (!((byte >= 0x30 && byte <= 0x39) || byte === 0x3b || byte === 0x3a)) return this.finish(state, out);
    }
    const params = String.fromCharCode(...held.slice(2, -1));
    const { rewritten, resets } = rewriteSgr(params, stream === 'stderr');
    const written = `\x1b[${rewritten}m`;
    if (rewritten !== params) {
      held.length = 0;
      for (let k = 0; k < written.length; k += 1) held.push(written.charCodeAt(k));
    }
    if (resets) state.sgr = [];
    // A plain reset leaves the stream at its base colours, which need no replay.
    if (!PLAIN_RESET.test(params)) state.sgr.push(written);
    if (state.sgr.length > MAX_SGR_KEPT) state.sgr.shift();
    this.finish(state, out);
  }
}

const PLAIN_RESET = /^[0;]*$/;
/** Parameters that may hold a reset: empty, or a part that is empty or starts with 0. */
const MAY_RESET = /^$|^[;:]|;;|;$|(^|;)0/;

/**
 * Walks SGR parameters (skipping the colour values after 38/48/58, whose zeros are no resets):
 * whether they reset, and — for stderr — the same with stderr's colour after each reset and in
 * place of the default foreground (39), so stderr's "default" colour is its own.
 */
export function rewriteSgr(params: string, stderr: boolean): { rewritten: string; resets: boolean } {
  // The common stdout SGR (a colour, bold) has nothing to rewrite and no reset.
  if (!stderr && !MAY_RESET.test(params)) return { rewritten: params, resets: false };
  const parts = params.split(';');
  const out: string[] = [];
  let resets = false;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    const main = part.split(':')[0] as string;
    if (main === '' || Number(main) === 0) {
      resets = true;
      out.push(part);
      if (stderr) out.push(STDERR_COLOUR_PARAM);
    } else if (Number(main) === 39 && !part.includes(':')) {
      out.push(stderr ? STDERR_COLOUR_PARAM : part);
    } else if (['38', '48', '58'].includes(main) && !part.includes(':')) {
      const kind = parts[i + 1];
      const values = kind === '5' ? 2 : kind === '2' ? 4 : 0;
      out.push(...parts.slice(i, i + 1 + values));
      i += values;
    } else {
      out.push(part);
    }
  }
  return { rewritten: out.join(';'), resets };
}

/** A growable byte buffer for one chunk's output. */
class ByteWriter {
  private buffer: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  push(byte: number): void {
    this.reserve(1);
    this.buffer[this.length] = byte;
    this.length += 1;
  }

  /** Appends element by element: a held sequence can be as long as a chunk. */
  pushAll(bytes: number[]): void {
    this.reserve(bytes.length);
    for (let k = 0; k < bytes.length; k += 1) this.buffer[this.length + k] = bytes[k] as number;
    this.length += bytes.length;
  }

  copy(source: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.buffer.set(source.subarray(start, end), this.length);
    this.length += end - start;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}
