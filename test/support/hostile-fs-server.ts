// A hostile exec-server for download tests: a real ws server on 127.0.0.1 that speaks just enough of
// the protocol (initialize, environment/status and the fs reads, no Tether extensions, so bytes
// travel as base64 JSON as with codex) to serve a made-up folder tree whose names and sizes lie:
// "..", "../x", "a/b", NUL, files longer or shorter than getMetadata says. Each entry is found at
// path.posix.join(folder, name), the path a client that trusted the name would ask for, so a
// client without the checks really does get the data to write where the name points.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WebSocketServer } from 'ws';

export interface HostileFile {
  name: string;
  data: Uint8Array;
  /** The size getMetadata reports (default: the data's length; a liar says less or more). */
  declaredSize?: number;
}

export interface HostileFolder {
  name: string;
  entries: HostileEntry[];
}

export type HostileEntry = HostileFile | HostileFolder;

export interface HostileFsServer {
  url: string;
  /** Every fs path the clients asked about (decoded), in order. */
  asked: string[];
  close(): Promise<void>;
}

type Node = { kind: 'file'; file: HostileFile } | { kind: 'folder'; entries: HostileEntry[] };

const isFolder = (entry: HostileEntry): entry is HostileFolder => 'entries' in entry;

const NOT_FOUND = -32004;
const METHOD_NOT_FOUND = -32601;

/**
 * Serves folder `root` (an absolute POSIX path) holding `entries`. `generated` may list folders the
 * tree does not hold (an endless or huge tree): its entries' folders are generated the same way and
 * its files are empty.
 */
export async function startHostileFsServer(options: {
  root: string;
  entries: HostileEntry[];
  generated?: (dir: string) => Array<{ name: string; isDirectory: boolean }> | undefined;
}): Promise<HostileFsServer> {
  const nodes = new Map<string, Node>();
  const add = (at: string, node: Node): void => {
    // The first entry at a path keeps it: "" in /share is /share itself.
    if (nodes.has(at)) return;
    nodes.set(at, node);
    if (node.kind === 'folder') {
      for (const entry of node.entries) {
        const below = path.posix.join(at, entry.name);
        add(
          below,
          isFolder(entry) ? { kind: 'folder', entries: entry.entries } : { kind: 'file', file: entry },
        );
      }
    }
  };
  add(options.root, { kind: 'folder', entries: options.entries });
  const nodeAt = (at: string): Node | undefined => {
    const known = nodes.get(at);
    if (known) return known;
    const listing = options.generated?.(path.posix.dirname(at));
    const entry = listing?.find((e) => e.name === path.posix.basename(at));
    if (!entry) return undefined;
    return entry.isDirectory
      ? { kind: 'folder', entries: [] }
      : { kind: 'file', file: { name: entry.name, data: new Uint8Array() } };
  };
  const handles = new Map<string, HostileFile>();
  const asked: string[] = [];

  const answer = (method: string, params: Record<string, unknown>): unknown => {
    const at = typeof params.path === 'string' ? decodeURIComponent(new URL(params.path).pathname) : '';
    if (at) asked.push(at);
    const node = at ? nodeAt(at) : undefined;
    const missing = { error: { code: NOT_FOUND, message: `no such file or directory: ${at}` } };
    switch (method) {
      case 'initialize':
        return { result: { sessionId: 'hostile-session', environmentInfo: { cwd: 'file:///' } } };
      case 'environment/status':
        return { result: { status: 'ready' } };
      case 'fs/getMetadata': {
        if (!node) return missing;
        const size = node.kind === 'file' ? (node.file.declaredSize ?? node.file.data.byteLength) : 0;
        return {
          result: {
            isDirectory: node.kind === 'folder',
            isFile: node.kind === 'file',
            isSymlink: false,
            size,
            createdAtMs: 0,
            modifiedAtMs: 0,
          },
        };
      }
      case 'fs/readDirectory': {
        const generated = options.generated?.(at);
        if (generated) {
          const entries = generated.map((e) => ({
            fileName: e.name,
            isDirectory: e.isDirectory,
            isFile: !e.isDirectory,
          }));
          return { result: { entries } };
        }
        if (node?.kind !== 'folder') return missing;
        const entries = node.entries.map((e) => ({
          fileName: e.name,
          isDirectory: isFolder(e),
          isFile: !isFolder(e),
        }));
        return { result: { entries } };
      }
      case 'fs/readFile':
        if (node?.kind !== 'file') return missing;
        return { result: { dataBase64: Buffer.from(node.file.data).toString('base64') } };
      case 'fs/open':
        if (node?.kind !== 'file') return missing;
        handles.set(String(params.handleId), node.file);
        return { result: { handleId: params.handleId } };
      case 'fs/readBlock': {
        const file = handles.get(String(params.handleId));
        if (!file) return { error: { code: NOT_FOUND, message: 'unknown file handle' } };
        const offset = Number(params.offset);
        const end = Math.min(file.data.byteLength, offset + Number(params.len));
        const chunk = Buffer.from(file.data.subarray(offset, end)).toString('base64');
        return { result: { chunk, eof: end >= file.data.byteLength } };
      }
      case 'fs/close':
        handles.delete(String(params.handleId));
        return { result: {} };
      default:
        return { error: { code: METHOD_NOT_FOUND, message: `${method} is not served here` } };
    }
  };

  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown };
      if (message.id === undefined || message.method === undefined) return;
      const reply = answer(message.method, (message.params ?? {}) as Record<string, unknown>);
      ws.send(JSON.stringify({ id: message.id, ...(reply as object) }));
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** The hostile names every download test serves (besides the honest entries around them). */
export const TRAVERSAL_NAMES = ['..', '../x', '../../victim.txt', 'a/b', '/abs', '', 'a\0b', '..\\..\\x.cmd'];

/**
 * The tree of the download tests under `root`: honest files and folders (which must arrive), the
 * hostile names above as files, a folder named ".." (whose contents would land beside the target),
 * a hostile name with terminal escapes in it, and, unless `liars` is false, a file longer than it
 * says (small and streamed) and one shorter.
 */
export function hostileTree(options: { liars?: boolean } = {}): HostileEntry[] {
  const text = (s: string): Uint8Array => Buffer.from(s);
  const entries: HostileEntry[] = [
    { name: 'good.txt', data: text('good\n') },
    {
      name: 'sub',
      entries: [
        { name: 'inner.txt', data: text('inner\n') },
        { name: '..', data: text('up\n') },
      ],
    },
    { name: 'empty folder', entries: [] },
    ...TRAVERSAL_NAMES.filter((n) => n !== '..').map((name) => ({
      name,
      data: text(`written through ${name}\n`),
    })),
    { name: '..', entries: [{ name: 'escaped.txt', data: text('escaped\n') }] },
    // Clears the screen and moves up: printed raw, it would hide the lines above it.
    { name: '../\u001b[2J\u001b[1Aevil', data: text('evil\n') },
  ];
  if (options.liars !== false) {
    entries.push(
      // Says 5 bytes, then keeps sending: small enough for one fs/readFile in `tether cp`...
      { name: 'liar.txt', data: Buffer.alloc(4 * 1_048_576, 'A'), declaredSize: 5 },
      // ...and one large enough to be streamed in blocks.
      { name: 'liar.bin', data: Buffer.alloc(8 * 1_048_576, 'B'), declaredSize: 600 * 1024 },
      { name: 'short.txt', data: text('short'), declaredSize: 100 },
    );
  }
  return entries;
}

/** A file's contents, or its start and length when long (a liar's bytes). */
const shown = (text: string): string =>
  text.length > 64 ? `${text.slice(0, 8)}… (${text.length} bytes)` : text;

/** Every folder (trailing "/") and file under `dir`, with file contents. */
export function treeSnapshot(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (lstatSync(full).isDirectory()) {
      out[`${prefix}${name}/`] = 'dir';
      Object.assign(out, treeSnapshot(full, `${prefix}${name}/`));
    } else out[`${prefix}${name}`] = shown(readFileSync(full, 'utf8'));
  }
  return out;
}
