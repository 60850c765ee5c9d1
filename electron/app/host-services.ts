// What the AppService needs from the host it runs in (Electron or the web host): opening links and
// giving downloads a destination (a save dialog and a local file, or a one-time browser URL;
// for a folder, a chosen local folder or a zip streamed to such a URL), and, in the desktop app
// only, the views that show a forwarded port's page inside the window.
import type { EventName, EventPayload, IfExists, PreviewBounds, PreviewState } from '../../shared/ipc';

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

/** Where a folder download goes: a tree on the local disk, or one zip stream. */
export interface FolderDownloadTarget {
  /** Whether one file failing leaves the others usable (a tree: yes; a zip cut mid-entry: no). */
  readonly filesIndependent: boolean;
  /** Which of `files` (paths inside the folder) already exist at the destination. */
  taken(files: string[]): Promise<string[]>;
  createFolder(relativePath: string): Promise<void>;
  /**
   * A destination for one file. A taken name is replaced only for "replace"; "keepBoth" writes a
   * numbered name; "fail" (nobody was asked: the name was free) refuses one that appeared meanwhile.
   */
  file(relativePath: string, size: number, ifExists: IfExists): Promise<DownloadTarget>;
  finish(): Promise<void>;
  abort(reason: string): void;
}

export interface DownloadHost {
  /**
   * Prepares a destination. Returns null when the user declined (closed the save dialog). `url` is
   * what the renderer must open (web mode) or null; `target` resolves once bytes can be written.
   */
  begin(request: DownloadRequest): Promise<{ url: string | null; target: Promise<DownloadTarget> } | null>;
  /** The same for a folder (`request.name` is the folder's; `size` the sum of its files). */
  beginFolder(
    request: DownloadRequest,
  ): Promise<{ url: string | null; target: Promise<FolderDownloadTarget> } | null>;
}

/** What a preview view tells the renderer (its state, a link it would not follow). */
export type PreviewEvent = {
  [N in Extract<EventName, `preview.${string}`>]: { name: N; payload: EventPayload<N> };
}[Extract<EventName, `preview.${string}`>];

/** The desktop app's preview views (see shared/ipc/contract/preview.ts for what each call means). */
export interface PreviewHost {
  /** Called once, by the AppService: where the views' events go. */
  listen(emit: (event: PreviewEvent) => void): void;
  open(id: string, envId: string, port: number): PreviewState;
  place(id: string, bounds: PreviewBounds | null): void;
  navigate(id: string, action: 'back' | 'forward' | 'reload' | 'home'): void;
  retain(ids: ReadonlySet<string>): void;
}

export interface HostServices {
  openExternal(url: string): Promise<void>;
  downloads: DownloadHost;
  /** Absent in web mode: a browser tab cannot hold another site's page safely (docs/forwarding.md). */
  previews?: PreviewHost;
}
