// Bundles the exec-server's reader thread (electron/server/reader/reader-worker.ts) on its own, as one
// CommonJS script, and serves it to the server as the string module `virtual:tether-reader-worker`:
// to esbuild for dist/ (scripts/build.mjs) and to Vite for the tests of the source (vitest.config.ts).
import { build } from 'esbuild';
import path from 'node:path';

export const READER_WORKER_MODULE = 'virtual:tether-reader-worker';
const ENTRY = 'electron/server/reader/reader-worker.ts';
// Vite's convention for a resolved virtual module: the NUL keeps other plugins off it.
const RESOLVED_VITE_ID = `\0${READER_WORKER_MODULE}`;

/** The worker's code as text, and the source files it was built from (to watch). */
export async function bundleReaderWorker(root) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Run with `new Worker(code, { eval: true })`, which takes a CommonJS script.
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  return {
    code: result.outputFiles[0].text,
    inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(root, input)),
  };
}

function asModule(code) {
  return `export default ${JSON.stringify(code)};\n`;
}

/** esbuild plugin: resolves the virtual module to the freshly bundled worker. */
export function esbuildReaderWorker(root) {
  return {
    name: 'tether-reader-worker',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^virtual:tether-reader-worker$/ }, (args) => ({
        path: args.path,
        namespace: 'tether-reader-worker',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'tether-reader-worker' }, async () => {
        const { code, inputs } = await bundleReaderWorker(root);
        return { contents: asModule(code), loader: 'js', watchFiles: inputs };
      });
    },
  };
}

/** Vite plugin (the test runner): the same module for code run from source. */
export function viteReaderWorker(root) {
  return {
    name: 'tether-reader-worker',
    resolveId(id) {
      return id === READER_WORKER_MODULE ? RESOLVED_VITE_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_VITE_ID) return undefined;
      const { code, inputs } = await bundleReaderWorker(root);
      for (const input of inputs) this.addWatchFile(input);
      return asModule(code);
    },
  };
}
