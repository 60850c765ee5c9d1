// Auto-forwarding of the ports a process Tether started says it serves: a localhost URL in its
// output (`http://localhost:5173/`, `127.0.0.1:8080`, `0.0.0.0:3000`, `[::1]:4000`) forwards that
// port of the host once per environment and app run, and tells the renderers (forwards.detected),
// which offer Open · Ignore. Such a forward lives as long as the process that printed it: it is
// stopped when that process ends (or, socket-ports.ts, when its port stops listening), and it is
// never kept in the config.
import type { ForwardView, ProcessView } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import type { ProcessOutputWatcher } from '../processes/process-flow';

// Colour and style escapes split a URL in a dev server's banner (vite bolds the port).
// eslint-disable-next-line no-control-regex -- the escape character is what is matched
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;
const LOCAL_URL = /(?:^|[^\w.-])(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):(\d{2,5})(?![\d.])/g;
/** What is kept of a chunk's end, so a URL split across two chunks is still seen. */
const TAIL_CHARS = 64;
/** How much of each end of a big chunk is read. */
const SCAN_BYTES = 4096;

/** The ports the localhost URLs in `text` name, in order, each once. */
export function printedPorts(text: string): number[] {
  const ports: number[] = [];
  for (const match of text.replace(ESCAPES, '').matchAll(LOCAL_URL)) {
    const port = Number(match[1]);
    if (port >= 1 && port <= 65535 && !ports.includes(port)) ports.push(port);
  }
  return ports;
}

export interface PrintedPortForwarderDeps {
  /** Whether `envId`'s printed ports are worth forwarding (not Local's: they already work here). */
  wanted(envId: string): boolean;
  list(envId: string): ForwardView[];
  /** Forwards `port` for `process`, which printed it. */
  add(envId: string, port: number, process: ProcessView): Promise<ForwardView>;
  stop(envId: string, id: string): Promise<void>;
  detected(envId: string, forward: ForwardView): void;
  failed(message: string): void;
}

export class PrintedPortForwarder implements ProcessOutputWatcher {
  /** `envId` → the ports already acted on this run (forwarded or found forwarded): one notice each. */
  private readonly seen = new Map<string, Set<number>>();
  /** The end of each process's last chunk (latin1: the URLs are ASCII). */
  private readonly tails = new Map<string, string>();
  /** The forwards each process's URLs made, by process key. */
  private readonly made = new Map<string, string[]>();

  constructor(private readonly deps: PrintedPortForwarderDeps) {}

  printed(process: ProcessView, data: Uint8Array): void {
    if (!this.deps.wanted(process.envId)) return;
    const key = `${process.envId}\0${process.processId}`;
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    // A dev server's banner comes in small chunks; of bulk output (a build log, `cat` of a big
    // file) only the start and the end are read, so the scan stays cheap next to the output itself.
    const read =
      bytes.byteLength <= SCAN_BYTES * 2
        ? bytes.toString('latin1')
        : `${bytes.subarray(0, SCAN_BYTES).toString('latin1')}\n${bytes.subarray(-SCAN_BYTES).toString('latin1')}`;
    const text = (this.tails.get(key) ?? '') + read;
    this.tails.set(key, text.slice(-TAIL_CHARS));
    for (const port of printedPorts(text)) this.offer(process, key, port);
  }

  ended(process: ProcessView): void {
    const key = `${process.envId}\0${process.processId}`;
    this.tails.delete(key);
    const ids = this.made.get(key) ?? [];
    this.made.delete(key);
    const live = new Set(this.deps.list(process.envId).map((f) => f.id));
    for (const id of ids)
      if (live.has(id))
        this.deps.stop(process.envId, id).catch((e: unknown) => this.deps.failed(errorMessage(e)));
  }

  private offer(process: ProcessView, key: string, port: number): void {
    const seen = this.seen.get(process.envId) ?? new Set<number>();
    this.seen.set(process.envId, seen);
    if (seen.has(port)) return;
    seen.add(port);
    // Forwarded already (by hand, or kept from before): nothing to do, nothing to say.
    if (this.deps.list(process.envId).some((f) => f.port === port)) return;
    this.deps.add(process.envId, port, process).then(
      (forward) => {
        this.made.set(key, [...(this.made.get(key) ?? []), forward.id]);
        // It ended while the port was being bound.
        if (!this.tails.has(key)) this.ended(process);
        else this.deps.detected(process.envId, forward);
      },
      (e: unknown) => this.deps.failed(`Port ${port}, printed by ${process.title}: ${errorMessage(e)}`),
    );
  }
}
