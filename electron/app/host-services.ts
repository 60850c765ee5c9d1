// What the AppService needs from the host it runs in (Electron or the web host): opening links and
// giving downloads a destination (a save dialog and a local file, or a one-time browser URL).
export interface DownloadTarget {
  write(chunk: Uint8Array): Promise<void>;
  finish(): Promise<void>;
  abort(reason: string): void;
}

export interface DownloadRequest {
  /** Suggested file name. */
  name: string;
  size: number | null;
  /** Aborted when the transfer is cancelled. */
  signal: AbortSignal;
}

export interface DownloadHost {
  /**
   * Prepares a destination. Returns null when the user declined (closed the save dialog). `url` is
   * what the renderer must open (web mode) or null; `target` resolves once bytes can be written.
   */
  begin(request: DownloadRequest): Promise<{ url: string | null; target: Promise<DownloadTarget> } | null>;
}

export interface HostServices {
  openExternal(url: string): Promise<void>;
  downloads: DownloadHost;
}
