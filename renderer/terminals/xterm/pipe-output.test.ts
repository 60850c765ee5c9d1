import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/xterm';
import { PipeOutput, rewriteSgr } from './pipe-output';

const encode = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Feeds chunks in order and returns everything the pane would write, as one string. */
function run(chunks: [stream: 'stdout' | 'stderr', text: string | number[]][]): string {
  const pipe = new PipeOutput();
  const parts = chunks.map(([stream, text]) =>
    pipe.translate(stream, typeof text === 'string' ? encode(text) : Uint8Array.from(text)),
  );
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return decode(all);
}

describe('PipeOutput newlines', () => {
  it('gives a bare \\n its \\r and leaves an existing \\r\\n alone', () => {
    expect(run([['stdout', 'a\nb\r\nc\n']])).toBe('a\r\nb\r\nc\r\n');
  });

  it('does not add a \\r when the chunk before ended in one', () => {
    expect(
      run([
        ['stdout', 'a\r'],
        ['stdout', '\nb\n'],
      ]),
    ).toBe('a\r\nb\r\n');
  });

  it('adds one when the chunk before ended in something else', () => {
    expect(
      run([
        ['stdout', 'a'],
        ['stdout', '\n'],
        ['stdout', '\n'],
      ]),
    ).toBe('a\r\n\r\n');
  });

  it('converts a \\n executed inside an escape sequence, not one inside an OSC string', () => {
    expect(run([['stdout', '\x1b[\n1m']])).toBe('\x1b[\r\n1m');
    expect(run([['stdout', '\x1b]0;a\nb\x07']])).toBe('\x1b]0;a\nb\x07');
  });
});

describe('PipeOutput stderr colour', () => {
  it('draws stderr in red and switches back to stdout with a reset', () => {
    expect(
      run([
        ['stdout', 'out\n'],
        ['stderr', 'err\n'],
        ['stdout', 'more\n'],
      ]),
    ).toBe('out\r\n\x1b[31merr\r\n\x1b[0mmore\r\n');
  });

  it('restores the colours stdout had set when output switches back to it', () => {
    expect(
      run([
        ['stdout', '\x1b[1;32mok '],
        ['stderr', 'e'],
        ['stdout', 'still green'],
      ]),
    ).toBe('\x1b[1;32mok \x1b[0m\x1b[31me\x1b[0m\x1b[1;32mstill green');
  });

  it('forgets stdout colours at its reset', () => {
    expect(
      run([
        ['stdout', '\x1b[32mg\x1b[0m '],
        ['stderr', 'e'],
        ['stdout', 'x'],
      ]),
    ).toBe('\x1b[32mg\x1b[0m \x1b[31me\x1b[0mx');
  });

  it('keeps stderr red through its own resets and default-foreground, not through its own colours', () => {
    expect(run([['stderr', 'a\x1b[0mb\x1b[mc\x1b[39md\x1b[1;34me']])).toBe(
      '\x1b[31ma\x1b[0;31mb\x1b[;31mc\x1b[31md\x1b[1;34me',
    );
  });

  it('never puts a colour switch inside an escape sequence split across chunks', () => {
    expect(
      run([
        ['stdout', 'x\x1b[3'],
        ['stderr', 'err\n'],
        ['stdout', '2mgreen'],
      ]),
    ).toBe('x\x1b[31merr\r\n\x1b[0m\x1b[32mgreen');
    // The same for an OSC title (ended by BEL) and a lone ESC at a chunk's end.
    expect(
      run([
        ['stdout', '\x1b]0;ti'],
        ['stderr', 'e'],
        ['stdout', 'tle\x07t'],
      ]),
    ).toBe('\x1b[31me\x1b[0m\x1b]0;title\x07t');
    expect(
      run([
        ['stderr', 'e\x1b'],
        ['stdout', 'o'],
        ['stderr', '[1mE'],
      ]),
    ).toBe('\x1b[31me\x1b[0mo\x1b[31m\x1b[1mE');
  });

  it('keeps a UTF-8 character split across chunks whole', () => {
    expect(
      run([
        ['stdout', [0x61, 0xc3]],
        ['stderr', 'e'],
        ['stdout', [0xa9, 0x62]],
      ]),
    ).toBe('a\x1b[31me\x1b[0mé' + 'b');
  });

  it('remembers stderr SGRs in their rewritten form', () => {
    expect(
      run([
        ['stderr', '\x1b[0;1mx'],
        ['stdout', 'o'],
        ['stderr', 'y'],
      ]),
    ).toBe('\x1b[31m\x1b[0;31;1mx\x1b[0mo\x1b[31m\x1b[0;31;1my');
  });

  it('resets before the pane writes its own line, and drops unfinished sequences after a gap', () => {
    const pipe = new PipeOutput();
    pipe.translate('stderr', encode('e\x1b[3'));
    expect(pipe.interrupt({ lostOutput: true })).toBe('\x1b[0m');
    expect(pipe.interrupt({ lostOutput: false })).toBe('');
    expect(decode(pipe.translate('stderr', encode('x')))).toBe('\x1b[31mx');
  });
});

describe('rewriteSgr', () => {
  it('does not take the zeros of 256-colour and RGB values for resets', () => {
    expect(rewriteSgr('38;2;0;0;0', true)).toEqual({ rewritten: '38;2;0;0;0', resets: false });
    expect(rewriteSgr('48;5;0;0', true)).toEqual({ rewritten: '48;5;0;0;31', resets: true });
    expect(rewriteSgr('38:2::0:0:0', false)).toEqual({ rewritten: '38:2::0:0:0', resets: false });
    // stdout's SGRs are never rewritten, only read for a reset.
    expect(rewriteSgr('1;0;32', false)).toEqual({ rewritten: '1;0;32', resets: true });
    expect(rewriteSgr('1;;32', false)).toEqual({ rewritten: '1;;32', resets: true });
    expect(rewriteSgr('', false)).toEqual({ rewritten: '', resets: true });
    expect(rewriteSgr('10;32;39', false)).toEqual({ rewritten: '10;32;39', resets: false });
  });
});

describe('PipeOutput in xterm', () => {
  async function screen(chunks: [stream: 'stdout' | 'stderr', text: string][]) {
    const terminal = new Terminal({ cols: 40, rows: 10, allowProposedApi: true });
    const pipe = new PipeOutput();
    for (const [stream, text] of chunks) {
      const data = pipe.translate(stream, encode(text));
      await new Promise<void>((resolve) => terminal.write(data, resolve));
    }
    const buffer = terminal.buffer.active;
    const lines = [...Array(buffer.length).keys()].map(
      (y) => buffer.getLine(y)?.translateToString(true) ?? '',
    );
    return { terminal, buffer, lines };
  }

  it('prints pipe lines straight, each from column 0, with stderr in palette red', async () => {
    const { terminal, buffer, lines } = await screen([
      ['stdout', 'a\nb\n'],
      ['stdout', 'c\r'],
      ['stdout', '\n'],
      ['stderr', 'err\n'],
      ['stdout', 'd\n'],
    ]);
    expect(lines.slice(0, 6)).toEqual(['a', 'b', 'c', 'err', 'd', '']);
    const fg = (y: number) => {
      const cell = buffer.getLine(y)?.getCell(0);
      return { palette: cell?.isFgPalette() ?? false, colour: cell?.getFgColor() };
    };
    expect(fg(3)).toEqual({ palette: true, colour: 1 });
    expect(fg(0).palette).toBe(false);
    expect(fg(4).palette).toBe(false);
    terminal.dispose();
  });
});
