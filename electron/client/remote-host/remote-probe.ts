// The one look at a host before installing: its OS and architecture, libc, node, what Tether has
// installed there already, free space and tools, in a single command framed by markers. Then the
// verdict: which node will run the server, or a precise error saying what the host lacks.
import { REMOTE_BUNDLE_MANIFEST, REMOTE_SERVER_ROOT } from '../../../shared/remote-bundle';
import { MIN_GLIBC, MIN_HOST_NODE_MAJOR, REMOTE_RUNTIME_ROOT } from './host-constants';
import { SshError } from '../transports/ssh/ssh-error';
import type { HostShell } from './host-shell';
import {
  framedFields,
  newMarker,
  remoteSh,
  runOnHost,
  safeRemotePath,
  SHA256_FUNCTION,
  unsafePathError,
} from './remote-shell';

export interface HostFacts {
  home: string;
  /** `uname -s`, e.g. Linux. */
  os: string;
  /** `uname -m`, e.g. x86_64. */
  machine: string;
  /** Node's name for the architecture (x64, arm64), or null if Tether has no build for it. */
  arch: string | null;
  glibc: [number, number] | null;
  musl: boolean;
  /** glibc's dynamic loader is there (a host without getconf may still have glibc). */
  glibcLoader: boolean;
  /** The node found on PATH (or at remoteNodePath) and its major version. */
  nodePath: string | null;
  nodeMajor: number | null;
  /** sha256 of the installed bundle's manifest.json, if that version is installed. */
  installedManifestSha256: string | null;
  /** Directory names under ~/.tether/runtime (each one a complete runtime). */
  runtimes: string[];
  freeKb: number | null;
  tools: Set<string>;
}

const ARCHES: Record<string, string> = { x86_64: 'x64', amd64: 'x64', aarch64: 'arm64', arm64: 'arm64' };

/** A bundle's install directory on the host whose HOME is `home`. */
export const remoteServerDir = (home: string, bundleId: string): string =>
  `${home}/${REMOTE_SERVER_ROOT}/${bundleId}`;
/** Node runtimes Tether uploaded live beside the server versions. */
export const remoteRuntimeDir = (home: string, runtimeId: string): string =>
  `${home}/${REMOTE_RUNTIME_ROOT}/${runtimeId}`;

export async function probeHost(
  shell: HostShell,
  bundleId: string,
  remoteNodePath: string | undefined,
): Promise<HostFacts> {
  const marker = newMarker();
  const nodeLookup =
    remoteNodePath !== undefined
      ? `N="${safeRemotePath(remoteNodePath, 'remoteNodePath', 'checking')}"; [ -x "$N" ] || N=""`
      : 'N="$(command -v node 2>/dev/null || true)"';
  const run = await runOnHost(
    shell,
    remoteSh([
      SHA256_FUNCTION,
      `echo "${marker}-begin"`,
      'echo "home=$HOME"',
      'echo "os=$(uname -s 2>/dev/null)"',
      'echo "machine=$(uname -m 2>/dev/null)"',
      'echo "glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null)"',
      'echo "ldd=$(ldd --version 2>&1 | head -n 1)"',
      'for L in /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* /lib/*/ld-linux-*.so.*; do [ -e "$L" ] && { echo "loader=$L"; break; }; done',
      nodeLookup,
      'echo "node=$N"',
      'if [ -n "$N" ]; then echo "nodeVersion=$("$N" -v 2>/dev/null)"; fi',
      `M="$HOME/${REMOTE_SERVER_ROOT}/${bundleId}/${REMOTE_BUNDLE_MANIFEST}"`,
      'if [ -f "$M" ]; then echo "manifest=$(h "$M")"; fi',
      `echo "runtimes=$(ls "$HOME/${REMOTE_RUNTIME_ROOT}" 2>/dev/null | tr "[:space:]" " ")"`,
      'echo "freeKb=$(df -Pk "$HOME" 2>/dev/null | tail -n 1 | tr -s " " | cut -d " " -f 4)"',
      'echo "tools=$(for t in xz gzip tar sha256sum shasum openssl; do command -v $t >/dev/null 2>&1 && printf "%s " $t; done)"',
      `echo "${marker}-end"`,
    ]),
    { stage: 'checking', doing: 'examining the host' },
  );
  const fields = framedFields(run.stdout, marker);
  if (!fields) {
    throw new SshError(
      'transport',
      'checking',
      `Could not examine ${shell.hostName}: its shell did not run Tether's probe (exit ${run.code}).` +
        (run.stderr.trim() ? `\n${run.stderr.trim()}` : ''),
    );
  }
  const field = (key: string): string => fields.get(key)?.trim() ?? '';
  const glibc = /(\d+)\.(\d+)/.exec(field('glibc'));
  const nodeVersion = /^v(\d+)\./.exec(field('nodeVersion'));
  const free = Number.parseInt(field('freeKb'), 10);
  return {
    home: field('home'),
    os: field('os'),
    machine: field('machine'),
    arch: ARCHES[field('machine')] ?? null,
    glibc: glibc ? [Number(glibc[1]), Number(glibc[2])] : null,
    musl: /musl/i.test(field('ldd')),
    glibcLoader: field('loader') !== '',
    nodePath: field('node') || null,
    nodeMajor: nodeVersion ? Number(nodeVersion[1]) : null,
    installedManifestSha256: field('manifest') || null,
    runtimes: field('runtimes').split(' ').filter(Boolean),
    freeKb: Number.isFinite(free) ? free : null,
    tools: new Set(field('tools').split(' ').filter(Boolean)),
  };
}

/** Where the server's node comes from: the host's own, or the runtime Tether uploads. */
export type NodeChoice = { kind: 'host'; path: string } | { kind: 'runtime' };

/** How a user points Tether at a node of their own, for errors about the host's node. */
export const REMOTE_NODE_PATH_HINT =
  `If the host has a Node ≥ ${MIN_HOST_NODE_MAJOR} of its own that can load native modules, give its ` +
  `path as the environment's "Node on the host" (--remote-node for tether run and tether ssh).`;

/** The way out for a host without glibc: a node of its own (which must load node-pty too). */
const NO_GLIBC_WAY_OUT =
  `Install glibc there, or give a Node ≥ ${MIN_HOST_NODE_MAJOR} of the host's own that can load native modules ` +
  `as the environment's "Node on the host" (--remote-node PATH for tether run and tether ssh).`;

/**
 * The first reason Tether cannot serve this host at all, as an error for the user. With a node of
 * the user's own (`remoteNodePath`) the libc is not refused here: whether that node loads the
 * terminal support is checked once the bundle is there.
 */
export function hostRequirementsError(
  facts: HostFacts,
  destination: string,
  remoteNodePath?: string,
): SshError | null {
  const unsupported = (why: string): SshError =>
    new SshError('hostSetup', 'checking', `Tether cannot run on ${destination}: ${why}`);
  if (facts.os !== 'Linux')
    return unsupported(`it runs ${facts.os || 'an unknown OS'}, and Tether serves Linux hosts.`);
  if (facts.arch === null) {
    return unsupported(
      `its architecture ${facts.machine || '(unknown)'} is not one Tether has builds for (x86_64, aarch64).`,
    );
  }
  if (facts.musl && remoteNodePath === undefined) {
    return unsupported(
      `it uses musl libc (e.g. Alpine); Tether's Node runtime and terminal support (node-pty) need glibc ` +
        `${MIN_GLIBC.join('.')} or newer. ${NO_GLIBC_WAY_OUT}`,
    );
  }
  if (!facts.musl && facts.glibc === null && !facts.glibcLoader && remoteNodePath === undefined) {
    return unsupported(
      'it has no glibc (no GNU C library loader in /lib or /lib64, as in busybox-only or distroless images); ' +
        `Tether's Node runtime and terminal support (node-pty) need glibc ${MIN_GLIBC.join('.')} or newer. ${NO_GLIBC_WAY_OUT}`,
    );
  }
  if (
    facts.glibc &&
    (facts.glibc[0] < MIN_GLIBC[0] || (facts.glibc[0] === MIN_GLIBC[0] && facts.glibc[1] < MIN_GLIBC[1]))
  ) {
    return unsupported(
      `its glibc is ${facts.glibc.join('.')}, and Tether's terminal support (node-pty) needs ${MIN_GLIBC.join('.')} or newer.`,
    );
  }
  if (!facts.tools.has('tar')) return unsupported('it has no "tar", which the install needs.');
  if (!['sha256sum', 'shasum', 'openssl'].some((tool) => facts.tools.has(tool))) {
    return unsupported('it has none of sha256sum, shasum or openssl to verify the upload.');
  }
  return unsafePathError(facts.home, 'The home directory', 'checking');
}

/** The host's node if it is new enough (node-pty is checked once the bundle is there). */
export function nodeChoice(facts: HostFacts, remoteNodePath: string | undefined): NodeChoice {
  if (remoteNodePath !== undefined) {
    if (facts.nodePath === null || facts.nodeMajor === null || facts.nodeMajor < MIN_HOST_NODE_MAJOR) {
      throw new SshError(
        'hostSetup',
        'checking',
        `"Node on the host" (${remoteNodePath}) is not a runnable Node ≥ ${MIN_HOST_NODE_MAJOR} on the host` +
          (facts.nodeMajor !== null ? ` (it is Node ${facts.nodeMajor}).` : '.'),
      );
    }
    return { kind: 'host', path: remoteNodePath };
  }
  if (facts.nodePath !== null && facts.nodeMajor !== null && facts.nodeMajor >= MIN_HOST_NODE_MAJOR) {
    return { kind: 'host', path: facts.nodePath };
  }
  return { kind: 'runtime' };
}
