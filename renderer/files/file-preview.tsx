// Preview of the selected file: capped text in monospace, images inline, otherwise a note.
import type { EnvFiles } from './files-store';
import { formatBytes } from '../ui/format';
import { ErrorLine } from '../ui/error-line';

export function FilePreviewView({ name, state }: { name: string; state: NonNullable<EnvFiles['preview']> }) {
  const { preview, error } = state;
  return (
    <aside className="preview" aria-label={`Preview of ${name}`}>
      <strong>{name}</strong>
      <ErrorLine message={error} />
      {!error && !preview && <p className="muted">Loading…</p>}
      {preview?.kind === 'text' && (
        <>
          <pre>{preview.text}</pre>
          {preview.truncated && <p className="muted">Showing the start of {formatBytes(preview.size)}.</p>}
        </>
      )}
      {preview?.kind === 'image' && (
        <img alt={name} src={`data:${preview.mime};base64,${preview.dataBase64}`} />
      )}
      {preview?.kind === 'binary' && (
        <p className="muted">Binary file, {formatBytes(preview.size)}: no preview.</p>
      )}
      {preview?.kind === 'tooLarge' && (
        <p className="muted">
          {formatBytes(preview.size)} is over the preview limit of {formatBytes(preview.limit)}.
        </p>
      )}
    </aside>
  );
}
