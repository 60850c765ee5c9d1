// Real containers for the container environments' tests: podman with runc (crun refuses these
// machines' cgroup layout), lowered limits (root here lacks CAP_SYS_RESOURCE) and no network. No
// registry is reachable, so the images are imported from root filesystems built here: busybox
// (Debian's busybox-static) plus this machine's glibc and libstdc++/libgcc, so that the Node runtime
// Tether uploads runs there; and busybox alone, without glibc. Images are named by a hash of their
// contents, so every test file (and run) reuses what an earlier one built; containers are named
// uniquely per run and removed by whoever started them.
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const PODMAN = '/usr/bin/podman';
const BUSYBOX = '/bin/busybox';
/** What the uploaded Node runtime and node-pty load (from this machine, which runs them too). */
const GLIBC_LIBS = [
  '/lib64/ld-linux-x86-64.so.2',
  '/lib/x86_64-linux-gnu/libc.so.6',
  '/lib/x86_64-linux-gnu/libm.so.6',
  '/lib/x86_64-linux-gnu/libdl.so.2',
  '/lib/x86_64-linux-gnu/libpthread.so.0',
  '/lib/x86_64-linux-gnu/librt.so.1',
  '/lib/x86_64-linux-gnu/libutil.so.1',
  '/lib/x86_64-linux-gnu/libstdc++.so.6',
  '/lib/x86_64-linux-gnu/libgcc_s.so.1',
];

/** Whether this machine can run the container tests (podman, runc, a static busybox, x86_64 glibc). */
export function containersAvailable(): boolean {
  return (
    existsSync(PODMAN) &&
    existsSync('/usr/sbin/runc') &&
    existsSync(BUSYBOX) &&
    GLIBC_LIBS.slice(0, 6).every((file) => existsSync(file))
  );
}

const run = promisify(execFile);

/** Runs podman with `args`; resolves with its trimmed stdout. */
export async function podman(...args: string[]): Promise<string> {
  const { stdout } = await run(PODMAN, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

export type TestImage = 'glibc' | 'busybox';

const imageBuilds = new Map<TestImage, Promise<string>>();

/** The image's name (`localhost/tether-test-glibc:<content hash>`), imported if podman has no such image yet. */
export function testImage(kind: TestImage): Promise<string> {
  let build = imageBuilds.get(kind);
  if (!build) {
    build = buildImage(kind);
    imageBuilds.set(kind, build);
  }
  return build;
}

async function buildImage(kind: TestImage): Promise<string> {
  const files = [BUSYBOX, ...(kind === 'glibc' ? GLIBC_LIBS.filter((file) => existsSync(file)) : [])];
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(file));
  const name = `localhost/tether-test-${kind}:${hash.digest('hex').slice(0, 16)}`;
  const exists = await run(PODMAN, ['image', 'exists', name]).then(
    () => true,
    () => false,
  );
  if (exists) return name;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-image-'));
  try {
    const root = path.join(dir, 'root');
    for (const sub of ['bin', 'root', 'tmp', 'etc', 'proc', 'sys', 'dev'])
      mkdirSync(path.join(root, sub), { recursive: true });
    execFileSync('chmod', ['1777', path.join(root, 'tmp')]);
    copyFileSync(BUSYBOX, path.join(root, 'bin/busybox'));
    execFileSync('chmod', ['755', path.join(root, 'bin/busybox')]);
    const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const applet of applets) {
      if (applet !== 'busybox') symlinkSync('busybox', path.join(root, 'bin', applet));
    }
    writeFileSync(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
    writeFileSync(path.join(root, 'etc/group'), 'root:x:0:\n');
    if (kind === 'glibc') {
      for (const file of GLIBC_LIBS.filter((f) => existsSync(f))) {
        mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
        copyFileSync(file, path.join(root, file));
      }
    }
    const tarball = path.join(dir, 'root.tar');
    execFileSync('tar', ['-C', root, '-cf', tarball, '.']);
    await podman('import', '-q', tarball, name);
    return name;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A name unique to this run, for the containers a test file starts. */
export function containerName(what: string): string {
  return `tether-test-${what}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export interface RunOptions {
  /** Directories of this machine and where they appear inside (a shared /root/.tether: one install per file). */
  volumes?: Array<[hostDir: string, containerDir: string]>;
}

/** Starts a container of `image` named `name` (its main process sleeps), with runc and lowered limits. */
export async function runContainer(image: string, name: string, options: RunOptions = {}): Promise<void> {
  await podman(
    '--runtime',
    'runc',
    'run',
    '-d',
    '--name',
    name,
    '--network',
    'none',
    '--ulimit',
    'nofile=10000:10000',
    '--ulimit',
    'nproc=1000:1000',
    ...(options.volumes ?? []).flatMap(([hostDir, containerDir]) => ['-v', `${hostDir}:${containerDir}`]),
    image,
    '/bin/sleep',
    '100000000',
  );
}

/** Pids of the local `podman exec -i NAME … bridge` commands of the container (the links to its daemon). */
export function bridgePids(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(path.join('/proc', entry, 'cmdline'), 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const at = argv.indexOf('exec');
    if (
      at > 0 &&
      argv[at + 2] === name &&
      argv.some((arg) => / bridge --preamble \S+ --session-ttl-ms /.test(arg))
    ) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Removes the containers (running or not); the ones already gone are fine. */
export async function removeContainers(names: string[]): Promise<void> {
  if (names.length > 0) await podman('rm', '--force', '--ignore', '--time', '0', ...names);
}
