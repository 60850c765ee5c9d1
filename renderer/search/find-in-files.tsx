// The Search panel: Find in files, run on the environment's host (ripgrep, else grep). A query with
// its options (match case, whole word, regex), the files to include and the folder; the results by
// file, each line with its number and the matches marked; a click opens the editor at that line.
// Remote text reaches the page only as React text (escaped), never as markup.
import { useEffect, useRef, type ReactNode } from 'react';
import { CaseSensitive, Regex, Search, Square, WholeWord } from 'lucide-react';
import type { EnvironmentView, TextMatch, TextSearchResult } from '../../shared/ipc';
import { ErrorLine } from '../ui/error-line';
import { cancelFind, findInFiles, openFileAt } from './search-actions';
import { findOf, formOf, useSearch, type FindForm } from './search-store';

function Toggle(props: { label: string; on: boolean; onChange: (on: boolean) => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className={`icon toggle${props.on ? ' on' : ''}`}
      aria-label={props.label}
      aria-pressed={props.on}
      title={props.label}
      onClick={() => props.onChange(!props.on)}
    >
      {props.children}
    </button>
  );
}

/** A matched line's text with its ranges marked. */
function MatchText({ match }: { match: TextMatch }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of match.ranges) {
    if (start < at || end <= start) continue;
    if (start > at) parts.push(match.text.slice(at, start));
    parts.push(<mark key={start}>{match.text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(match.text.slice(at));
  return <span className="find-text mono">{parts}</span>;
}

function relativeTo(root: string, path: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

function Summary({ result }: { result: TextSearchResult }) {
  const shown = result.files.reduce((n, f) => n + f.matches.length, 0);
  const more = result.totalMatches - shown;
  const floor = result.stopped !== null;
  const why =
    result.stopped === 'cancelled'
      ? ' (cancelled)'
      : result.stopped === 'timeout'
        ? ' (stopped at the time limit)'
        : result.stopped === 'countLimit'
          ? ' (stopped counting)'
          : '';
  if (result.totalMatches === 0)
    return (
      <p className="muted" role="status">
        No results{why}.
      </p>
    );
  return (
    <p className="muted" role="status">
      {floor ? 'At least ' : ''}
      {result.totalMatches} {result.totalMatches === 1 ? 'match' : 'matches'} in {result.files.length}
      {result.files.length === 1 ? ' file' : ' files'}
      {more > 0 && `; ${floor ? 'at least ' : ''}${more} more… not shown (narrow the search)`}
      {why} — {result.tool === 'rg' ? 'ripgrep' : 'grep'} on the host
    </p>
  );
}

function Results({ envId, root, result }: { envId: string; root: string; result: TextSearchResult }) {
  return (
    <>
      <Summary result={result} />
      {result.warning && <p className="muted find-warning">The search tool said: {result.warning}</p>}
      <ul className="find-results" aria-label="Search results">
        {result.files.map((file) => (
          <li key={file.path}>
            <div className="find-file mono" title={file.path}>
              {relativeTo(root, file.path)} <span className="muted">({file.matches.length})</span>
            </div>
            <ul>
              {file.matches.map((match, i) => (
                <li key={`${match.line}-${i}`}>
                  {/* The name holds the visible text ("250 the line"), as WCAG 2.5.3 asks. */}
                  <button
                    className="find-match"
                    aria-label={`Line ${match.line} ${match.text}`}
                    onClick={() => openFileAt(envId, file.path, match.line)}
                    title={`${file.path}:${match.line}`}
                  >
                    <span className="find-line muted mono">{match.line}</span> <MatchText match={match} />
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

export function FindInFiles({ env }: { env: EnvironmentView }) {
  const form = useSearch((s) => formOf(s.forms, env.id));
  const find = useSearch((s) => findOf(s.finds, env.id));
  const focusRequest = useSearch((s) => s.findFocusRequest);
  const patch = (change: Partial<FindForm>) => useSearch.getState().patchForm(env.id, change);
  const queryRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    queryRef.current?.focus();
    queryRef.current?.select();
  }, [focusRequest]);
  const running = find.kind === 'running';
  return (
    <section className="find-panel" aria-label="Find in files">
      <form
        className="find-form"
        onSubmit={(e) => {
          e.preventDefault();
          void findInFiles(env.id);
        }}
      >
        <div className="find-row">
          <input
            ref={queryRef}
            type="search"
            aria-label="Find in files"
            placeholder="Find in files"
            value={form.query}
            maxLength={1000}
            onChange={(e) => patch({ query: e.target.value })}
          />
          <Toggle
            label="Match case"
            on={form.caseSensitive}
            onChange={(caseSensitive) => patch({ caseSensitive })}
          >
            <CaseSensitive size={15} aria-hidden="true" />
          </Toggle>
          <Toggle label="Whole word" on={form.wholeWord} onChange={(wholeWord) => patch({ wholeWord })}>
            <WholeWord size={15} aria-hidden="true" />
          </Toggle>
          <Toggle label="Regular expression" on={form.regex} onChange={(regex) => patch({ regex })}>
            <Regex size={15} aria-hidden="true" />
          </Toggle>
          {running ? (
            <button type="button" onClick={() => cancelFind(env.id)}>
              <Square size={14} aria-hidden="true" />
              Cancel
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!form.query}>
              <Search size={14} aria-hidden="true" />
              Search
            </button>
          )}
        </div>
        <div className="find-row">
          <input
            aria-label="Files to include"
            placeholder="Files to include, e.g. *.ts, *.md"
            value={form.include}
            maxLength={1000}
            onChange={(e) => patch({ include: e.target.value })}
          />
          <input
            aria-label="Folder to search"
            placeholder="Folder: the Files view's folder"
            className="mono"
            value={form.root}
            maxLength={4096}
            onChange={(e) => patch({ root: e.target.value })}
          />
        </div>
      </form>
      {running && (
        <p className="muted" role="status">
          Searching <span className="mono">{find.root}</span>…
        </p>
      )}
      {find.kind === 'failed' && <ErrorLine message={find.error} />}
      {find.kind === 'done' && <Results envId={env.id} root={find.root} result={find.result} />}
    </section>
  );
}
