// The server bundle installed on SSH hosts (dist/remote/), run from a copy outside the repository:
// its manifest is exact, `version` names it, a pty runs through `bridge`, the bridge loads a small
// part of it, and node-pty comes from the bundle's own directory even when a node_modules with
// node-pty sits above it.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIDGE_EXIT_NO_DAEMON, parseRemoteBundleManifest } from '../../../shared/remote-bundle';
import { daemonRigsEachTest } from './daemon-rig';

const newRig = daemonRigsEachTest();

/** The bundle's files that `file` imports statically, and theirs, with `file` itself. */
function staticClosure(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(path.join(dir, file), 'utf8');
  for (const match of text.matchAll(/^import\s[^;]*?from\s*"\.\/([^"]+)";/gms)) {
    staticClosure(dir, match[1]!, seen);
  }
  return seen;
}

describe('the remote server bundle', () => {
  it('lists every file with its size and SHA-256, and hashes them as shared/remote-bundle.ts says', () => {
    const rig = newRig();
    const manifest = parseRemoteBundleManifest(rig.manifest);
    const paths = manifest.files.map((file) => file.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain('server.mjs');
    expect(paths).toContain('node-pty/package.json');
    expect(paths).toContain('node-pty/lib/index.js');
    expect(paths).toContain('node-pty/prebuilds/linux-x64/pty.node');
    expect(paths).toContain('node-pty/prebuilds/linux-arm64/pty.node');
    expect(paths.filter((p) => /prebuilds\/(darwin|win32)/.test(p))).toEqual([]);
    const bundleHash = createHash('sha256');
    for (const file of manifest.files) {
      const bytes = readFileSync(path.join(rig.bundleDir, file.path));
      expect(file.size).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      bundleHash.update(`${file.path}\0${bytes.length}\0`).update(bytes);
    }
    expect(manifest.hash).toBe(bundleHash.digest('hex').slice(0, 12));
  });

  it('prints its version and hash as one JSON line', async () => {
    const rig = newRig();
    const result = await rig.run(['version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${JSON.stringify({ version: rig.manifest.version, hash: rig.manifest.hash })}\n`,
    );
  });

  it('runs a pty process through the bridge, from a directory with no node_modules above it', async () => {
    const rig = newRig();
    const { client } = rig.bridge();
    await client.handshake();
    await client.call('process/start', {
      processId: 'tty',
      argv: ['/bin/sh', '-c', 'read line; echo "got:$line"'],
      cwd: 'file:///tmp',
      env: {},
      tty: true,
    });
    const typed = Buffer.from('hello\n').toString('base64');
    expect(await client.call('process/write', { processId: 'tty', chunk: typed, writeId: 'w1' })).toEqual({
      status: 'accepted',
    });
    await client.waitFor(() => client.hasClosed('tty'), 'tty closed');
    expect(client.outputOf('tty')).toContain('got:hello\r\n');
  });

  it('starts the bridge from a small part of itself: the server is loaded only by the subcommands that serve', async () => {
    const rig = newRig();
    const loaded = staticClosure(rig.bundleDir, 'server.mjs');
    const bytes = [...loaded].reduce((sum, file) => sum + statSync(path.join(rig.bundleDir, file)).size, 0);
    // The bridge runs on every connect, and Node's start of it is part of each warm connect's time.
    expect(bytes).toBeLessThan(400 * 1024);
    // Without every file the entry does not import statically, `bridge` (and `version`) still run.
    for (const file of readdirSync(rig.bundleDir)) {
      if (file.endsWith('.mjs') && !loaded.has(file)) rmSync(path.join(rig.bundleDir, file));
    }
    expect((await rig.run(['version'])).code).toBe(0);
    const bridge = await rig.run(['bridge', '--no-start']);
    expect(bridge.stderr).toContain('no Tether daemon is running');
    expect(bridge.code).toBe(BRIDGE_EXIT_NO_DAEMON);
  });

  it('loads node-pty only from its own directory, never from a node_modules up the tree', async () => {
    const rig = newRig();
    // A node_modules with a working node-pty where Node's lookup would find it first, and the
    // bundle's own node-pty removed: the server must fail rather than run with a stranger's copy.
    const modules = path.join(rig.bundleDir, 'node_modules');
    mkdirSync(modules);
    symlinkSync(path.resolve('node_modules/node-pty'), path.join(modules, 'node-pty'));
    rmSync(path.join(rig.bundleDir, 'node-pty'), { recursive: true });
    const result = await rig.run(['exec-server', '--listen', 'stdio']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot find module '.*\/node-pty'/);
  });
});
