// POSIX shell quoting for the few words Tether puts into sh command lines (local askpass script,
// remote bootstrap commands). One rule: single quotes around everything, each ' spelled '\''.

export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
