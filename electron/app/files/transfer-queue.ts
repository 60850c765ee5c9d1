// Uploads and downloads: a queue with limited concurrency, each transfer streaming in blocks through
// the client's fs handles, with progress, rate, cancel and clear failures. Owns every TransferView
// (a folder's per-file views too) and sends transfers.changed (progress throttled, state changes at
// once). It also knows what is still winding down, so shutdown can let cancelled transfers clean up
// before the links close.
import { randomUUID } from 'node:crypto';
import type { TransferFileView, TransferView } from '../../../shared/ipc';
import { AppError, notFound } from '../app-error';
import { TRANSFER_CONCURRENCY, TRANSFER_PROGRESS_THROTTLE_MS, TRANSFER_RATE_WINDOW_MS } from '../limits';
import type { UploadBuffer } from './upload-buffer';
import { errorMessage } from '../../../shared/error-message';

/** Hands the queue work that outlives a job's run (e.g. removing what a failed upload wrote). */
export type TrackCleanup = (work: Promise<unknown>) => void;

/** What a folder job says about one of its files (by index); the queue sums the bytes. */
export type FileReport = (
  index: number,
  change: Partial<Pick<TransferFileView, 'doneBytes' | 'state' | 'note'>>,
) => void;

/** Where the renderer's chunks of an upload go: file 0 of a single upload, file n of a folder. */
export interface UploadInput {
  buffer(file: number): UploadBuffer;
  fail(error: Error): void;
}

export interface TransferJob {
  /**
   * Runs the transfer; reports progress as cumulative bytes (a folder job reports per file through
   * `files` instead). Must honour the signal.
   */
  run(
    signal: AbortSignal,
    progress: (doneBytes: number) => void,
    cleanup: TrackCleanup,
    files: FileReport,
  ): Promise<void>;
  upload?: UploadInput;
}

/** The UploadInput of a single-file upload. */
export function singleUpload(buffer: UploadBuffer): UploadInput {
  return {
    buffer: (file) => {
      if (file !== 0) throw new AppError('invalidInput', 'A single-file upload has only file 0.');
      return buffer;
    },
    fail: (error) => buffer.fail(error),
  };
}

interface Entry {
  view: TransferView;
  job: TransferJob;
  abort: AbortController;
  samples: Array<[number, number]>;
  lastEmitAt: number;
  timer: NodeJS.Timeout | null;
}

export class TransferQueue {
  private readonly entries = new Map<string, Entry>();
  private running = 0;
  /** Runs not yet settled and the cleanups they handed over. */
  private readonly windingDown = new Set<Promise<unknown>>();

  constructor(
    private readonly changed: (view: TransferView) => void,
    private readonly concurrency = TRANSFER_CONCURRENCY,
  ) {}

  add(
    init: Pick<TransferView, 'envId' | 'direction' | 'remotePath' | 'name' | 'totalBytes' | 'files'>,
    job: TransferJob,
  ): TransferView {
    const view: TransferView = {
      id: randomUUID(),
      ...init,
      doneBytes: 0,
      rate: 0,
      state: 'queued',
      error: null,
      startedAt: null,
      endedAt: null,
    };
    this.entries.set(view.id, {
      view,
      job,
      abort: new AbortController(),
      samples: [],
      lastEmitAt: 0,
      timer: null,
    });
    this.changed(snapshot(view));
    this.pump();
    return snapshot(this.entries.get(view.id)!.view);
  }

  /** A transfer that ended before it began (e.g. the save dialog was closed). */
  addCancelled(
    init: Pick<TransferView, 'envId' | 'direction' | 'remotePath' | 'name' | 'totalBytes'>,
  ): TransferView {
    const now = Date.now();
    const view: TransferView = {
      id: randomUUID(),
      ...init,
      doneBytes: 0,
      rate: 0,
      state: 'cancelled',
      error: null,
      startedAt: null,
      endedAt: now,
    };
    const entry: Entry = {
      view,
      job: { run: async () => undefined },
      abort: new AbortController(),
      samples: [],
      lastEmitAt: 0,
      timer: null,
    };
    this.entries.set(view.id, entry);
    this.changed({ ...view });
    return { ...view };
  }

  list(): TransferView[] {
    return [...this.entries.values()].map((e) => snapshot(e.view));
  }

  upload(id: string, file: number): UploadBuffer {
    const entry = this.entries.get(id);
    if (!entry?.job.upload) throw notFound(`Upload ${id}`);
    if (entry.view.state === 'cancelled' || entry.view.state === 'failed') {
      throw new AppError('conflict', `This upload was ${entry.view.state}; start it again.`);
    }
    return entry.job.upload.buffer(file);
  }

  cancel(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) throw notFound(`Transfer ${id}`);
    if (entry.view.state !== 'queued' && entry.view.state !== 'running') return;
    const wasQueued = entry.view.state === 'queued';
    entry.abort.abort();
    entry.job.upload?.fail(new AppError('conflict', 'The upload was cancelled.'));
    this.finish(entry, 'cancelled', null);
    if (wasQueued) this.pump();
  }

  /**
   * Cancels everything still queued or running (shutdown) and resolves once every run and the
   * cleanup it handed over has settled, so the caller can keep the links up until then.
   */
  async cancelAll(): Promise<void> {
    for (const entry of this.entries.values()) {
      if (entry.view.state === 'queued' || entry.view.state === 'running') this.cancel(entry.view.id);
    }
    // A run that settles may still hand over a cleanup, so wait until nothing is left.
    while (this.windingDown.size > 0) await Promise.allSettled([...this.windingDown]);
  }

  /** Work begun outside the queue (an editor save's cleanup) that shutdown must wait for too. */
  trackCleanup(work: Promise<unknown>): void {
    this.track(work);
  }

  clearFinished(): void {
    for (const [id, entry] of this.entries) {
      if (entry.view.state !== 'queued' && entry.view.state !== 'running') this.entries.delete(id);
    }
  }

  private pump(): void {
    for (const entry of this.entries.values()) {
      if (this.running >= this.concurrency) return;
      if (entry.view.state !== 'queued') continue;
      this.running++;
      this.track(this.start(entry));
    }
  }

  private async start(entry: Entry): Promise<void> {
    entry.view = { ...entry.view, state: 'running', startedAt: Date.now() };
    entry.samples = [[Date.now(), 0]];
    this.changed(snapshot(entry.view));
    try {
      await entry.job.run(
        entry.abort.signal,
        (done) => this.progress(entry, done),
        (work) => this.track(work),
        (index, change) => this.fileChanged(entry, index, change),
      );
      if (entry.view.state === 'running') {
        entry.view.doneBytes = entry.view.totalBytes ?? entry.view.doneBytes;
        this.finish(entry, 'done', null);
      }
    } catch (error) {
      if (entry.view.state === 'running') {
        entry.job.upload?.fail(error as Error);
        this.finish(entry, 'failed', describe(entry.view, error));
      }
    } finally {
      this.running--;
      this.pump();
    }
  }

  private track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.windingDown.add(settled);
    void settled.then(() => this.windingDown.delete(settled));
  }

  private progress(entry: Entry, doneBytes: number): void {
    if (entry.view.state !== 'running') return;
    const now = Date.now();
    // A write that started over (its server could not continue it) measures its rate afresh.
    if (doneBytes < entry.view.doneBytes) entry.samples.length = 0;
    entry.samples.push([now, doneBytes]);
    while (entry.samples.length > 2 && entry.samples[0]![0] < now - TRANSFER_RATE_WINDOW_MS)
      entry.samples.shift();
    const [t0, b0] = entry.samples[0]!;
    entry.view.doneBytes = doneBytes;
    entry.view.rate = now > t0 ? Math.round(((doneBytes - b0) * 1000) / (now - t0)) : 0;
    if (now - entry.lastEmitAt >= TRANSFER_PROGRESS_THROTTLE_MS) {
      this.emit(entry);
    } else {
      entry.timer ??= setTimeout(() => this.emit(entry), TRANSFER_PROGRESS_THROTTLE_MS);
    }
  }

  /** A folder job's news about one file: its bytes count towards the folder's, throttled alike. */
  private fileChanged(entry: Entry, index: number, change: Parameters<FileReport>[1]): void {
    const file = entry.view.files?.[index];
    if (!file || entry.view.state !== 'running') return;
    const before = file.doneBytes;
    Object.assign(file, change);
    this.progress(entry, entry.view.doneBytes + file.doneBytes - before);
  }

  private finish(entry: Entry, state: 'done' | 'failed' | 'cancelled', error: string | null): void {
    entry.view = { ...entry.view, state, error, endedAt: Date.now(), rate: 0 };
    // A folder that stops takes its unfinished files with it.
    if (state === 'cancelled') {
      for (const file of entry.view.files ?? []) {
        if (file.state === 'queued' || file.state === 'running') file.state = 'cancelled';
      }
    }
    this.emit(entry);
  }

  private emit(entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    entry.lastEmitAt = Date.now();
    this.changed(snapshot(entry.view));
  }
}

/** A copy of `view` that later changes to it (its files' progress) cannot reach. */
function snapshot(view: TransferView): TransferView {
  return view.files ? { ...view, files: view.files.map((f) => ({ ...f })) } : { ...view };
}

function describe(view: TransferView, error: unknown): string {
  const message = errorMessage(error);
  const verb = view.direction === 'upload' ? 'Uploading' : 'Downloading';
  return `${verb} ${view.name} failed after ${view.doneBytes} bytes: ${message}`;
}
