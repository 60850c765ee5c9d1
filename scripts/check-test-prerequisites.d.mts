// Types of check-test-prerequisites.mjs, for the tests that import it.
export interface MissingPrerequisite {
  what: string;
  install: string;
}
export function missingPrerequisites(paths?: {
  chromium?: string;
  sshd?: string;
  codex?: string | null;
  runtimesDir?: string;
  /** Where ripgrep, unzip, zsh and fish were found on PATH (null: missing). */
  tools?: { rg: string | null; unzip: string | null; zsh: string | null; fish: string | null };
}): MissingPrerequisite[];
export function prerequisitesLine(missing: MissingPrerequisite[]): string;
