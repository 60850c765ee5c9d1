// One folder upload: creates the folder and its subfolders (empty ones too) on the server, then
// uploads its files one after another, each through the same staged, conflict-checked path as a
// single upload (upload-job.ts), fed by the renderer's chunks for that file. A file that fails is
// reported and the others go on; the folder fails at the end, naming how many did not make it.
import path from 'node:path';
import type { FolderUploadPlan, TransferFileView } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import type { ExecServerClientApi } from '../../client/api';
import { AppError } from '../app-error';
import { resolveTarget } from './existing-target';
import type { FileReport, TrackCleanup, TransferJob, UploadInput } from './transfer-queue';
import { UploadBuffer } from './upload-buffer';
import { runUpload } from './upload-job';

/** The per-file views of `plan`: its files (index = plan index, as uploadChunk names them), then what was left out. */
export function folderUploadFiles(plan: FolderUploadPlan): TransferFileView[] {
  return [
    ...plan.files.map((f) => ({
      path: f.path,
      totalBytes: f.size,
      doneBytes: 0,
      state: 'queued' as const,
      note: null,
    })),
    ...plan.skipped.map((s) => ({
      path: s.path,
      totalBytes: 0,
      doneBytes: 0,
      state: 'skipped' as const,
      note: s.reason,
    })),
  ];
}

export function folderUploadJob(
  client: ExecServerClientApi,
  remotePath: string,
  plan: FolderUploadPlan,
  bufferLimitBytes: number,
): TransferJob {
  const input = new FolderUploadInput(plan, bufferLimitBytes);
  return {
    upload: input,
    run: (signal, _progress, cleanup, files) =>
      uploadFolder({ client, remotePath, plan, input, signal, cleanup, files }),
  };
}

interface FolderUploadRun {
  client: ExecServerClientApi;
  remotePath: string;
  plan: FolderUploadPlan;
  input: FolderUploadInput;
  signal: AbortSignal;
  cleanup: TrackCleanup;
  files: FileReport;
}

async function uploadFolder(run: FolderUploadRun): Promise<void> {
  const { client, remotePath, plan, input, signal, files } = run;
  // Parents first (the plan's order), so each mkdir finds its parent; an existing folder is merged into.
  for (const folder of ['', ...plan.folders]) {
    await client.fs.createDirectory(path.posix.join(remotePath, folder), { recursive: true });
  }
  const failed: string[] = [];
  for (const [index, file] of plan.files.entries()) {
    signal.throwIfAborted();
    files(index, { state: 'running' });
    const wanted = path.posix.join(remotePath, file.path);
    try {
      const target = await resolveTarget(client.fs, wanted, file.ifExists);
      await runUpload({
        client,
        remotePath: target.path,
        totalBytes: file.size,
        overwrite: target.overwrite,
        source: input.buffer(index),
        signal,
        progress: (doneBytes) => files(index, { doneBytes }),
        cleanup: run.cleanup,
      });
      const renamed = target.path === wanted ? null : `saved as ${path.posix.basename(target.path)}`;
      files(index, { state: 'done', doneBytes: file.size, note: renamed });
      input.ended(index, null);
    } catch (error) {
      if (signal.aborted) throw error;
      // Refuses the renderer's further chunks of this file, so it moves on to the next one.
      input.ended(index, error as Error);
      files(index, { state: 'failed', note: errorMessage(error) });
      failed.push(`${file.path}: ${errorMessage(error)}`);
    }
  }
  if (failed.length > 0) {
    throw new AppError(
      'remote',
      `${failed.length} of ${plan.files.length} files did not arrive (first: ${failed[0]})`,
    );
  }
}

/**
 * The chunk buffers of one folder upload, one per file, made when its first chunk comes. The
 * renderer sends the files in order, so at most the file being written and the next one are held.
 */
class FolderUploadInput implements UploadInput {
  private readonly buffers = new Map<number, UploadBuffer>();
  /** Files whose upload is over, and the error a late chunk of each gets. */
  private readonly over = new Map<number, Error>();
  private failure: Error | null = null;

  constructor(
    private readonly plan: FolderUploadPlan,
    private readonly limitBytes: number,
  ) {}

  buffer(file: number): UploadBuffer {
    if (this.failure) throw this.failure;
    const over = this.over.get(file);
    if (over) throw over;
    const size = this.plan.files[file]?.size;
    if (size === undefined) throw new AppError('invalidInput', `This folder upload has no file ${file}.`);
    let buffer = this.buffers.get(file);
    if (!buffer) {
      buffer = new UploadBuffer(size, this.limitBytes);
      this.buffers.set(file, buffer);
    }
    return buffer;
  }

  /** File `file` is done with (null) or failed: its buffer goes, later chunks are refused. */
  ended(file: number, error: Error | null): void {
    const reason = new AppError(
      'conflict',
      error ? `This file failed: ${errorMessage(error)}` : 'This file already arrived.',
    );
    this.over.set(file, reason);
    this.buffers.get(file)?.fail(reason);
    this.buffers.delete(file);
  }

  fail(error: Error): void {
    this.failure ??= error;
    for (const buffer of this.buffers.values()) buffer.fail(error);
    this.buffers.clear();
  }
}
