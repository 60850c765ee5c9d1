// Paths with a line number in terminal output (`src/app.ts:12:5`, `./main.py:3`, `/srv/x.c:10`),
// as compilers, linters and test runners print them: a click opens the file in the editor at that
// line. A relative path is taken from the folder the shell was in when the command that printed
// it ran (shell integration), else the one it is in now.

export interface FileLineLink {
  /** Index of the first character in the text, and one past the last. */
  start: number;
  end: number;
  path: string;
  line: number;
}

// A path ends in a name with an extension (so times like 12:30:45 are none), and starts where no
// other path or URL character is (so `https://host.example:8080` is none either).
const FILE_LINE = /(?<![\w./~:-])((?:\.{1,2}\/|\/)?[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z0-9]+):(\d+)(?::\d+)?/g;

/** The `path:line[:column]` references in one line of output. */
export function fileLineLinks(text: string): FileLineLink[] {
  const links: FileLineLink[] = [];
  for (const match of text.matchAll(FILE_LINE)) {
    const line = Number(match[2]);
    if (!Number.isSafeInteger(line) || line < 1) continue;
    links.push({ start: match.index, end: match.index + match[0].length, path: match[1]!, line });
  }
  return links;
}

/** `path` as an absolute path from `folder` (`.` and `..` resolved), or null without a folder. */
export function absolutePath(path: string, folder: string | undefined | null): string | null {
  if (!path.startsWith('/') && !folder?.startsWith('/')) return null;
  const parts: string[] = [];
  for (const part of (path.startsWith('/') ? path : `${folder}/${path}`).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
