// A terminal pane's search bar: the term, how it matches (case, regular expression, whole word),
// which match is current out of how many, and Previous / Next. Enter goes to the next match,
// Shift+Enter to the previous one, Escape closes the bar and gives the terminal its focus back.
import { useEffect, useState } from 'react';
import { CaseSensitive, Regex, WholeWord } from 'lucide-react';
import { useSettings } from '../settings/settings-store';
import { terminalFor } from './xterm/terminal-registry';
import type { TerminalSearchMatch } from './xterm/process-terminal';

type Results = { index: number; count: number };

/** What the count says: "2 of 7", "1000+ matches" past the highlight limit, or nothing to say. */
function countText(term: string, results: Results | null, invalid: boolean): string {
  if (!term) return '';
  if (invalid) return 'invalid regular expression';
  if (!results || results.count === 0) return 'no match';
  if (results.index < 0) return `${results.count}+ matches`;
  return `${results.index + 1} of ${results.count}`;
}

function isValidRegex(term: string): boolean {
  try {
    new RegExp(term);
    return true;
  } catch {
    return false;
  }
}

const TOGGLES = [
  { key: 'caseSensitive', label: 'Match case', icon: CaseSensitive },
  { key: 'wholeWord', label: 'Match whole word', icon: WholeWord },
  { key: 'regex', label: 'Use regular expression', icon: Regex },
] as const;

export function TerminalSearchBar({
  envId,
  processId,
  onClose,
}: {
  envId: string;
  processId: string;
  onClose: () => void;
}) {
  const [term, setTerm] = useState('');
  const [match, setMatch] = useState<TerminalSearchMatch>({
    caseSensitive: false,
    regex: false,
    wholeWord: false,
  });
  const [results, setResults] = useState<Results | null>(null);
  const terminal = () => terminalFor({ envId, processId }, useSettings.getState().settings);
  useEffect(
    () => terminalFor({ envId, processId }, useSettings.getState().settings).onSearchResults(setResults),
    [envId, processId],
  );
  const invalid = match.regex && term !== '' && !isValidRegex(term);

  const find = (direction: 'next' | 'previous', nextTerm = term, nextMatch = match) => {
    if (nextTerm === '' || (nextMatch.regex && !isValidRegex(nextTerm))) {
      terminal().clearSearch();
      setResults(null);
      return;
    }
    // No match fires no results event on every path: a miss is a count of zero.
    if (!terminal().find(nextTerm, direction, nextMatch)) setResults({ index: -1, count: 0 });
  };
  const close = () => {
    terminal().clearSearch();
    onClose();
    terminal().focus();
  };
  return (
    <div className="search-bar" role="search">
      <input
        autoFocus
        aria-label="Search terminal"
        aria-invalid={invalid}
        value={term}
        onChange={(e) => {
          setTerm(e.target.value);
          find('next', e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') find(e.shiftKey ? 'previous' : 'next');
          if (e.key === 'Escape') close();
        }}
      />
      {TOGGLES.map(({ key, label, icon: Icon }) => (
        <button
          key={key}
          className="icon"
          aria-label={label}
          title={label}
          aria-pressed={match[key]}
          onClick={() => {
            const next = { ...match, [key]: !match[key] };
            setMatch(next);
            find('next', term, next);
          }}
        >
          <Icon size={14} aria-hidden="true" />
        </button>
      ))}
      <span className="muted search-count" role="status">
        {countText(term, results, invalid)}
      </span>
      <button onClick={() => find('previous')}>Previous</button>
      <button onClick={() => find('next')}>Next</button>
      <button className="icon" aria-label="Close search" onClick={close}>
        ×
      </button>
    </div>
  );
}
