// Which line break a text file uses, so the editor (which splits lines on any break) writes the
// file back with the same one. A file that mixes them is saved with its most common one.
export type LineSeparator = '\n' | '\r\n' | '\r';

export interface LineEndings {
  separator: LineSeparator;
  /** More than one kind of break occurs: a save writes `separator` throughout. */
  mixed: boolean;
}

export function lineEndingsOf(text: string): LineEndings {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf++;
        i++;
      } else cr++;
    } else if (c === 10) lf++;
  }
  const kinds = [crlf, lf, cr].filter((n) => n > 0).length;
  // Ties go to LF: the common case, and what the editor would write for a file with no breaks.
  const separator: LineSeparator = crlf > lf && crlf >= cr ? '\r\n' : cr > lf && cr > crlf ? '\r' : '\n';
  return { separator, mixed: kinds > 1 };
}

/** How the user names a separator in the editor's status line. */
export function separatorName(separator: LineSeparator): string {
  return separator === '\r\n' ? 'CRLF' : separator === '\r' ? 'CR' : 'LF';
}
