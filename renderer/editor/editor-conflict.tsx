// What a save found instead of the file it opened: the server's version changed (both versions as a
// unified line diff, then Overwrite with mine / Take theirs / Save mine as a copy / Keep editing), or
// the file is gone (Recreate it / Keep editing).
import { useMemo } from 'react';
import type { EditorFile } from '../../shared/ipc';
import { dismissConflict, saveEditor, takeTheirs } from './editor-save';
import { documentText } from './editor-documents';
import { diffLines, hunksOf, type DiffLine } from './line-diff';
import { formatBytes, formatDateTime } from '../ui/format';
import type { EditorTab } from './editors-store';

export function EditorConflict({ tab, theirs }: { tab: EditorTab; theirs: EditorFile }) {
  const busy = tab.save.kind === 'saving';
  return (
    <section
      className="editor-notice conflict"
      role="region"
      aria-label={`Conflict: ${tab.name} changed on the server`}
    >
      <p>
        <strong>{tab.name} changed on the server since you opened it.</strong> Nothing was saved.{' '}
        {theirs.kind === 'text' && (
          <span className="muted">
            Theirs: {formatBytes(theirs.version.size)}, modified {formatDateTime(theirs.version.modifiedAtMs)}
            .
          </span>
        )}
      </p>
      {theirs.kind === 'text' ? (
        <ConflictDiff tab={tab} theirs={theirs.text} />
      ) : (
        <p>Their version cannot be shown here: {theirs.reason}</p>
      )}
      <div className="editor-notice-actions">
        <button
          className="primary danger"
          disabled={busy}
          onClick={() => void saveEditor(tab.id, 'overwrite')}
        >
          Overwrite with mine
        </button>
        <button disabled={busy} onClick={() => void takeTheirs(tab.id)}>
          Take theirs
        </button>
        <button disabled={busy} onClick={() => void saveEditor(tab.id, 'copy')}>
          Save mine as a copy
        </button>
        <button disabled={busy} onClick={() => dismissConflict(tab.id)}>
          Keep editing
        </button>
      </div>
    </section>
  );
}

export function EditorDeleted({ tab }: { tab: EditorTab }) {
  return (
    <section className="editor-notice conflict" role="region" aria-label={`${tab.name} was deleted`}>
      <p>
        <strong>{tab.name} was deleted on the server.</strong> Nothing was saved; your text is still here.
      </p>
      <div className="editor-notice-actions">
        <button
          className="primary"
          disabled={tab.save.kind === 'saving'}
          onClick={() => void saveEditor(tab.id, 'recreate')}
        >
          Recreate it
        </button>
        <button onClick={() => dismissConflict(tab.id)}>Keep editing</button>
      </div>
    </section>
  );
}

/** Theirs against mine, the changed lines with three lines of context, numbered on both sides. */
function ConflictDiff({ tab, theirs }: { tab: EditorTab; theirs: string }) {
  const separator = tab.content.kind === 'text' ? tab.content.endings.separator : '\n';
  // Recomputed when the conflict or the dirty state changes; typing meanwhile is not diffed live.
  const mine = documentText(tab.id, separator) ?? '';
  const hunks = useMemo(() => hunksOf(diffLines(splitLines(theirs), splitLines(mine))), [theirs, mine]);
  if (hunks.length === 0) return <p className="muted">Their text is the same as yours.</p>;
  return (
    <div className="editor-diff mono" role="table" aria-label="Differences: theirs (−) and mine (+)">
      <div role="row" className="diff-legend">
        <span role="cell" className="diff-theirs">
          − theirs (on the server)
        </span>
        <span role="cell" className="diff-mine">
          + mine (in the editor)
        </span>
      </div>
      {hunks.map((hunk, i) => (
        <div key={i} role="rowgroup" className="diff-hunk">
          {hunk.lines.map((line, j) => (
            <DiffRow key={j} line={line} />
          ))}
        </div>
      ))}
    </div>
  );
}

function DiffRow({ line }: { line: DiffLine }) {
  const theirsNo = line.kind === 'mine' ? '' : String(line.theirsLine + 1);
  const mineNo = line.kind === 'theirs' ? '' : String(line.mineLine + 1);
  const sign = line.kind === 'theirs' ? '−' : line.kind === 'mine' ? '+' : ' ';
  return (
    <div role="row" className={`diff-line diff-${line.kind}`}>
      <span role="cell" className="diff-no">
        {theirsNo}
      </span>
      <span role="cell" className="diff-no">
        {mineNo}
      </span>
      <span role="cell" className="diff-text">
        {sign} {line.text}
      </span>
    </div>
  );
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  // A final line break ends the last line rather than starting an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
