// Types of shell-scripts-plugin.mjs for the TypeScript that imports it (vitest.config.ts).
import type { Loader } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

export const SHELL_SCRIPT_LOADERS: Record<string, Loader>;
export function viteShellScripts(): VitePlugin;
