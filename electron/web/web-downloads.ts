// Downloads in web mode: each download gets a one-time URL on the web host; when the browser opens
// it, the response becomes the transfer's destination and the file streams straight into it. The URL
// carries no credential: it lives under the launch's path scope, where the browser sends its cookie.
// A folder streams the same way, as a zip.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type {
  DownloadHost,
  DownloadRequest,
  DownloadTarget,
  FolderDownloadTarget,
} from '../app/host-services';
import { zipFolderTarget } from '../app/files/zip-download-target';
import { AppError } from '../app/app-error';
import { DOWNLOAD_URL_TTL_MS } from '../app/limits';
import { WEB_DOWNLOAD_NAME } from '../../shared/ipc';

interface PendingDownload {
  request: DownloadRequest;
  resolve: (target: DownloadTarget) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class WebDownloads implements DownloadHost {
  private readonly pending = new Map<string, PendingDownload>();

  /** @param scope the web host's path scope (`/<random>/`) the URLs are made under. */
  constructor(private readonly scope: string) {}

  async begin(request: DownloadRequest): Promise<{ url: string; target: Promise<DownloadTarget> }> {
    return this.offer(request);
  }

  /** A folder comes as `<name>.zip`, streamed as it is read from the server. */
  async beginFolder(
    request: DownloadRequest,
  ): Promise<{ url: string; target: Promise<FolderDownloadTarget> }> {
    const { url, target } = this.offer({ ...request, name: `${request.name}.zip`, size: null });
    return { url, target: Promise.resolve(zipFolderTarget(request.name, target)) };
  }

  private offer(request: DownloadRequest): { url: string; target: Promise<DownloadTarget> } {
    const id = randomBytes(18).toString('base64url');
    const target = new Promise<DownloadTarget>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new AppError('conflict', 'The download link was not opened in time; start the download again.'),
        );
      }, DOWNLOAD_URL_TTL_MS);
      this.pending.set(id, { request, resolve, reject, timer });
      request.signal.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        reject(new AppError('conflict', 'The download was cancelled.'));
      });
    });
    target.catch(() => undefined);
    return { url: `${this.scope}${WEB_DOWNLOAD_NAME}${id}`, target };
  }

  /**
   * Serves GET or HEAD of download/<id>; returns false when the id is unknown or already used. Only a
   * GET uses the link up: a HEAD (a browser's or a download manager's probe) gets the headers alone.
   */
  serve(id: string, method: 'GET' | 'HEAD', response: ServerResponse): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    if (method === 'HEAD') {
      response.writeHead(200, headersOf(entry.request));
      response.end();
      return true;
    }
    this.pending.delete(id);
    clearTimeout(entry.timer);
    response.writeHead(200, headersOf(entry.request));
    entry.resolve({
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          if (response.destroyed)
            return reject(new AppError('conflict', 'The browser stopped the download.'));
          if (response.write(chunk)) return resolve();
          const onDrain = (): void => {
            response.off('close', onClose);
            resolve();
          };
          const onClose = (): void => {
            response.off('drain', onDrain);
            reject(new AppError('conflict', 'The browser stopped the download.'));
          };
          response.once('drain', onDrain);
          response.once('close', onClose);
        }),
      finish: () => new Promise<void>((resolve) => response.end(resolve)),
      abort: () => response.destroy(),
    });
    return true;
  }

  close(): void {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new AppError('conflict', 'Tether is shutting down.'));
    }
    this.pending.clear();
  }
}

function headersOf({ name, size }: DownloadRequest): Record<string, string> {
  return {
    'content-type': 'application/octet-stream',
    'content-disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'cache-control': 'no-store',
    ...(size !== null ? { 'content-length': String(size) } : {}),
  };
}
