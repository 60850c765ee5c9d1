// The CLI bundle's V8 code cache (electron/cli/code-cache.ts) on small real bundles in a temporary
// cache directory: written once and used after, and never used when it is not this bundle's or
// not whole, the bundle then running as itself and its file rewritten.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileBundle, type CompiledBundle } from '../../../electron/cli/code-cache';

let dir: string;
let cacheDir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-code-cache-'));
  cacheDir = path.join(dir, 'cache');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle whose module exports `value`, with enough functions that V8 has something to cache. */
function writeBundle(name: string, value: string): string {
  const file = path.join(dir, name);
  const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(file, `${helpers}\nmodule.exports = { value: ${JSON.stringify(value)}, sum: f49(f1(0)) };\n`);
  return file;
}

/** Compiles and runs `file` as the launcher does; what it exported and the compile's outcome. */
function load(file: string, command = 'run'): { exports: unknown; bundle: CompiledBundle } {
  const bundle = compileBundle(file, { cacheDir, command, mode: undefined });
  const module = { exports: {} as unknown };
  bundle.run(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, bundle };
}

const cacheFiles = (): string[] => readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));

describe('the CLI code cache', () => {
  it('is missing first, written once, then used as it is', () => {
    const file = writeBundle('a.cjs', 'A');
    const first = load(file);
    expect(first.bundle.outcome).toBe('missing');
    expect(first.exports).toEqual({ value: 'A', sum: 50 });
    expect(first.bundle.save()).toBe(true);
    expect(first.bundle.save()).toBe(false);
    const written = readFileSync(first.bundle.cacheFile!);

    const second = load(file);
    expect(second.bundle.outcome).toBe('used');
    expect(second.exports).toEqual({ value: 'A', sum: 50 });
    expect(second.bundle.save()).toBe(false);
    expect(readFileSync(second.bundle.cacheFile!)).toEqual(written);
    expect(cacheFiles()).toHaveLength(1);
    expect(statSync(first.bundle.cacheFile!).mode & 0o777).toBe(0o600);
  });

  it('keeps one file per command', () => {
    const file = writeBundle('a.cjs', 'A');
    load(file, 'run').bundle.save();
    expect(load(file, 'cp').bundle.outcome).toBe('missing');
    expect(load(file, 'run').bundle.outcome).toBe('used');
    // Not a command name a file could carry: they share one file.
    expect(load(file, '--version').bundle.cacheFile).toBe(load(file, '../x').bundle.cacheFile);
  });

  it.each([
    ['truncated', (data: Buffer) => data.subarray(0, data.length - 100)],
    ['cut inside its header', (data: Buffer) => data.subarray(0, 20)],
    [
      'corrupt',
      (data: Buffer) => Buffer.from(data.map((byte, i) => (i === data.length - 50 ? byte ^ 0xff : byte))),
    ],
    ['empty', () => Buffer.alloc(0)],
    ['garbage', () => Buffer.from('not a cache at all\n'.repeat(100))],
  ])('a %s file is not used: the bundle runs and the file is rewritten', (_what, damage) => {
    const file = writeBundle('a.cjs', 'A');
    const first = load(file);
    first.bundle.save();
    const good = readFileSync(first.bundle.cacheFile!);
    writeFileSync(first.bundle.cacheFile!, damage(good));

    const damaged = load(file);
    expect(damaged.bundle.outcome).toBe('invalid');
    expect(damaged.exports).toEqual({ value: 'A', sum: 50 });
    expect(damaged.bundle.save()).toBe(true);
    expect(load(file).bundle.outcome).toBe('used');
  });

  it("another bundle's cache is not used, even one V8 would take (the same length)", () => {
    const a = writeBundle('a.cjs', 'A');
    const b = writeBundle('b.cjs', 'B');
    expect(statSync(a).size).toBe(statSync(b).size);
    const fromA = load(a);
    fromA.bundle.save();
    const bFile = load(b).bundle.cacheFile!;
    expect(bFile).not.toBe(fromA.bundle.cacheFile);
    // A's bytes where B's cache goes, as a stale or copied file would be.
    writeFileSync(bFile, readFileSync(fromA.bundle.cacheFile!));

    const loaded = load(b);
    expect(loaded.bundle.outcome).toBe('invalid');
    expect(loaded.exports).toEqual({ value: 'B', sum: 50 });
  });

  it('a cache directory that cannot be written leaves the bundle running, the cache unwritten', () => {
    const file = writeBundle('a.cjs', 'A');
    writeFileSync(cacheDir, 'a file where the directory should be');
    const loaded = load(file);
    expect(loaded.bundle.outcome).toBe('missing');
    expect(loaded.exports).toEqual({ value: 'A', sum: 50 });
    expect(loaded.bundle.save()).toBe(false);
  });

  it('off: no cache read or written', () => {
    const file = writeBundle('a.cjs', 'A');
    const bundle = compileBundle(file, { cacheDir, mode: 'off' });
    expect(bundle.outcome).toBe('off');
    expect(bundle.save()).toBe(false);
    expect(() => readdirSync(cacheDir)).toThrow();
  });
});
