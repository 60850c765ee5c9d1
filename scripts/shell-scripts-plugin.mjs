// The shell integration's scripts (electron/app/processes/shell-integration/*.bash|zsh|fish) are
// imported as text by the app: esbuild does it with its `text` loader (scripts/build.mjs), and this
// plugin does it for Vite, which runs the tests of the source (vitest.config.ts).
import { readFile } from 'node:fs/promises';

export const SHELL_SCRIPT_LOADERS = { '.bash': 'text', '.zsh': 'text', '.fish': 'text' };

/** Vite plugin: a shell script module is its text. */
export function viteShellScripts() {
  return {
    name: 'tether-shell-scripts',
    async load(id) {
      if (!/\.(bash|zsh|fish)$/.test(id)) return undefined;
      return `export default ${JSON.stringify(await readFile(id, 'utf8'))};\n`;
    },
  };
}
