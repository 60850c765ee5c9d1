// The Node runtime for a host without node is fetched on first need: from the npm registry (here
// a local HTTP server on 127.0.0.1 that serves the real, pinned tarball from this machine's cache
// with its packument), with download progress in the connect's stages, checked against the pins
// and cached whole. A tampered tarball is refused and nothing kept; an unreachable registry gives
// an error that names the command to fetch it beforehand.
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNodeRuntime } from '../../../electron/client/remote-host/local-artifacts';
import {
  fetchRuntimeTarball,
  NODE_RUNTIME_VERSION,
  PINS,
  runtimeTarballName,
} from '../../../scripts/node-runtimes.mjs';
import { daemonPids, SshTestRig, type SshdHost } from '../../support/sshd';
import { recordingHooks, sshClient } from './ssh-helpers';

const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
const PACKAGE = `node-linux-${ARCH}`;

let rig: SshTestRig;
let host: SshdHost;
let registry: http.Server;
let base = '';
let scratch = '';
/** The pinned tarball as this machine's cache has it (what the real registry serves). */
let tarball = '';
let tampered: Buffer;

beforeAll(async () => {
  const cached = findNodeRuntime({}, ARCH);
  if (!cached) throw new Error('the Node runtime cache is empty: run npm run fetch-node-runtimes');
  tarball = cached.tgz.file;
  tampered = readFileSync(tarball);
  const middle = tampered.length >> 1;
  tampered[middle] = (tampered[middle] ?? 0) ^ 0xff;
  scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-runtime-fetch-'));
  // /good/… serves the real tarball, /tampered/… the same with one byte flipped.
  registry = http.createServer((request, response) => {
    const [, flavour, name, dash] = (request.url ?? '').split('/');
    if (name === PACKAGE && dash === undefined) {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name: PACKAGE,
          versions: {
            [NODE_RUNTIME_VERSION]: {
              dist: {
                tarball: `${base}/${flavour}/${PACKAGE}/-/${runtimeTarballName(ARCH)}`,
                integrity: PINS.runtimes[ARCH]?.npmIntegrity,
              },
            },
          },
        }),
      );
    } else if (name === PACKAGE && flavour === 'good') {
      response.setHeader('content-length', statSync(tarball).size);
      createReadStream(tarball).pipe(response);
    } else if (name === PACKAGE && flavour === 'tampered') {
      response.setHeader('content-length', tampered.length);
      response.end(tampered);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'fetch-host', noNode: true });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
  await new Promise<void>((resolve) => registry.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** An empty runtimes cache of its own. */
function emptyCache(name: string): string {
  return mkdtempSync(path.join(scratch, `${name}-`));
}

/** Connects to the host with `runtimesDir` and `registry`; resolves with the stages, or the error. */
async function connect(runtimesDir: string, registryUrl: string) {
  const hooks = recordingHooks();
  const client = sshClient(rig, host, hooks, { sshArtifacts: { runtimesDir, registry: registryUrl } });
  try {
    await client.connect();
    return { hooks, error: null };
  } catch (error) {
    return { hooks, error: error as Error };
  } finally {
    await client.close();
  }
}

/**
 * The host as if it never had the runtime: its files gone, and the daemon an earlier test started
 * with it ended (by pid), since a link reaches a running daemon without looking at the files.
 */
function withoutRuntime(): void {
  for (const pid of daemonPids(host)) process.kill(pid, 'SIGKILL');
  rmSync(path.join(host.home, '.tether', 'runtime'), { recursive: true, force: true });
}

describe('the Node runtime, fetched on first need', () => {
  it('is fetched from the registry with progress, cached whole, and runs the server on the host', async () => {
    const cache = emptyCache('good');
    const { hooks, error } = await connect(cache, `${base}/good`);
    expect(error).toBeNull();
    const downloads = hooks.stages.filter((s) => s.detail?.startsWith('downloading a Node runtime'));
    const size = statSync(tarball).size;
    expect(downloads.length).toBeGreaterThan(2);
    expect(downloads.every((s) => s.stage === 'installing' && s.bytesTotal === size)).toBe(true);
    expect(downloads.at(-1)?.bytesSent).toBe(size);
    expect(downloads[0]?.detail).toContain(`from ${base}/good`);
    // The tarball alone is kept, under npm's own name, and it is the pinned one.
    expect(readdirSync(cache)).toEqual([runtimeTarballName(ARCH)]);
    expect(sha256(path.join(cache, runtimeTarballName(ARCH)))).toBe(PINS.runtimes[ARCH]?.tgzSha256);
    expect(readdirSync(path.join(host.home, '.tether', 'runtime'))).toEqual([
      `node-v${NODE_RUNTIME_VERSION}-linux-${ARCH}`,
    ]);
  });

  it('refuses a tampered tarball with a clear error, and keeps nothing', async () => {
    withoutRuntime();
    const cache = emptyCache('tampered');
    const { error } = await connect(cache, `${base}/tampered`);
    expect(error?.message).toMatch(/arrived with integrity sha512-\S+, but sha512-\S+ is pinned/);
    expect(error?.message).toContain('refusing it');
    expect(readdirSync(cache)).toEqual([]);
  });

  it('says which command fetches it beforehand when the registry cannot be reached', async () => {
    withoutRuntime();
    // A port nothing listens on.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const cache = emptyCache('offline');
    const { error } = await connect(cache, `http://127.0.0.1:${port}`);
    expect(error?.message).toContain(`Could not fetch the Node runtime for linux-${ARCH}`);
    expect(error?.message).toContain('ECONNREFUSED');
    expect(error?.message).toContain(
      `npm pack ${PACKAGE}@${NODE_RUNTIME_VERSION} --pack-destination ${cache}`,
    );
    expect(readdirSync(cache)).toEqual([]);
  });

  it('stays whole when two fetches into one cache run at once, one of them refused', async () => {
    const cache = emptyCache('concurrent');
    const [good, bad] = await Promise.allSettled([
      fetchRuntimeTarball({ arch: ARCH, dir: cache, registry: `${base}/good` }),
      fetchRuntimeTarball({ arch: ARCH, dir: cache, registry: `${base}/tampered` }),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(readdirSync(cache)).toEqual([runtimeTarballName(ARCH)]);
    expect(sha256(path.join(cache, runtimeTarballName(ARCH)))).toBe(PINS.runtimes[ARCH]?.tgzSha256);
  });
});
