// Which files have unsaved changes in the editors of each attached renderer, as each last reported
// it: the quit warning names them, since quitting drops what only the renderer holds. A renderer
// that goes away takes its report with it.

export class UnsavedEdits {
  private readonly byRenderer = new Map<string, readonly string[]>();

  /** Renderer `rendererId` now has unsaved changes in `files` (replacing its last report). */
  report(rendererId: string, files: readonly string[]): void {
    if (files.length === 0) this.byRenderer.delete(rendererId);
    else this.byRenderer.set(rendererId, [...files]);
  }

  forget(rendererId: string): void {
    this.byRenderer.delete(rendererId);
  }

  /** The files with unsaved changes, in every renderer, in report order. */
  files(): string[] {
    return [...this.byRenderer.values()].flat();
  }
}
