// The bytes the throughput cases push: zeros, and "typical ANSI text" (coloured log and build output
// lines, as a terminal usually sees). The same generator feeds the process and the ws frame ceiling.
import { writeFileSync } from 'node:fs';

export type PayloadKind = 'zeros' | 'ansi';

const LEVELS = [
  '\x1b[32mINFO\x1b[0m ',
  '\x1b[33mWARN\x1b[0m ',
  '\x1b[1;31mERROR\x1b[0m',
  '\x1b[2mDEBUG\x1b[0m',
];
const WORDS = [
  'request',
  'worker',
  'compiled',
  'module',
  'cache',
  'retry',
  'socket',
  'handler',
  'flush',
  'index',
];

/** `size` bytes of ANSI-coloured text lines, deterministic (the same bytes on every run). */
function ansiText(size: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const level = LEVELS[i % LEVELS.length]!;
    const words = Array.from({ length: 6 + (i % 7) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(
      ' ',
    );
    const line =
      `\x1b[90m2025-01-01T12:${String(i % 60).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}Z\x1b[0m ` +
      `${level} \x1b[36m[svc-${i % 16}]\x1b[0m ${words} \x1b[1m${(i * 37) % 1000}\x1b[0m ms\n`;
    lines.push(line);
    length += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}

/** Bytes of the block the ANSI writer process repeats. */
const ANSI_BLOCK_BYTES = 1024 * 1024;

export function payloadBytes(kind: PayloadKind, size: number): Buffer {
  return kind === 'zeros' ? Buffer.alloc(size) : ansiText(size);
}

/** Writes the ANSI block to `file` (once per bench run). */
export function writeAnsiBlock(file: string): void {
  writeFileSync(file, ansiText(ANSI_BLOCK_BYTES));
}

/** argv of a process that writes exactly `bytes` bytes of `kind` to stdout, then exits. */
export function writerArgv(kind: PayloadKind, bytes: number, ansiBlockFile: string): string[] {
  if (kind === 'zeros') return ['/usr/bin/head', '-c', String(bytes), '/dev/zero'];
  return ['/bin/sh', '-c', 'while cat "$0"; do :; done | head -c "$1"', ansiBlockFile, String(bytes)];
}

/** Bytes a pty delivers for `bytes` of writer output: the line discipline turns each LF into CRLF. */
export function ptyOutputBytes(kind: PayloadKind, bytes: number): number {
  if (kind === 'zeros') return bytes;
  const block = ansiText(ANSI_BLOCK_BYTES);
  const newlines = (buffer: Buffer): number => buffer.reduce((n, byte) => (byte === 0x0a ? n + 1 : n), 0);
  const whole = Math.floor(bytes / block.length);
  return bytes + whole * newlines(block) + newlines(block.subarray(0, bytes % block.length));
}

/** The ANSI block as a pty delivers it (CRLF line ends). */
export function ansiBlockAsPty(): Buffer {
  return Buffer.from(ansiText(ANSI_BLOCK_BYTES).toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
}
