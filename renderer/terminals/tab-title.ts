// What a terminal tab is called: the user's name for it, else the title the running program set
// (OSC 0/2), else the process's command. Titles come from programs and can hold anything, so they
// are cleaned (no control or direction-override characters, one line) and cut to a bounded length.
import { MAX_TAB_TITLE_CHARS } from '../../shared/ipc';

/** C0/C1 controls and the bidi embeddings, overrides and isolates that could disguise a title. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One printable line of at most MAX_TAB_TITLE_CHARS characters; '' when nothing printable is left. */
export function sanitizeTitle(raw: string): string {
  const clean = raw.replace(UNSAFE_CHARS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  if (chars.length <= MAX_TAB_TITLE_CHARS) return clean;
  return `${chars
    .slice(0, MAX_TAB_TITLE_CHARS - 1)
    .join('')
    .trimEnd()}…`;
}

export interface TitleSources {
  /** The name the user gave the tab. */
  name?: string | undefined;
  /** The title the program set, already cleaned. */
  programTitle?: string | undefined;
  /** The process's own label (its command). */
  commandTitle?: string | undefined;
}

export function tabTitle({ name, programTitle, commandTitle }: TitleSources): string {
  return name || programTitle || commandTitle || 'terminal';
}
