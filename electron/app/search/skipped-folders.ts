// The folders Quick open and Find in files never look into, whatever tool does the looking: version
// control data and dependency trees, which are large and rarely what the user means.
export const SKIPPED_FOLDERS: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  '__pycache__',
  '.venv',
];

/** Whether a "/"-separated relative path lies in (or is) a skipped folder. */
export function inSkippedFolder(relativePath: string): boolean {
  return relativePath.split('/').some((part) => SKIPPED_FOLDERS.includes(part));
}

/** `rg --glob` arguments that leave the skipped folders out. */
export function rgSkipGlobs(): string[] {
  return SKIPPED_FOLDERS.flatMap((name) => ['--glob', `!${name}`]);
}
