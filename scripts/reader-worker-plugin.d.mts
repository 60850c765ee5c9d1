// Types of reader-worker-plugin.mjs for the TypeScript that imports it (vitest.config.ts).
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

export const READER_WORKER_MODULE: string;
export function bundleReaderWorker(root: string): Promise<{ code: string; inputs: string[] }>;
export function esbuildReaderWorker(root: string): EsbuildPlugin;
export function viteReaderWorker(root: string): VitePlugin;
