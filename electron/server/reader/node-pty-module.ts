// Where the exec-server loads node-pty from. Run from the checkout or dist/cli.js it is the
// node-pty of node_modules; in the SSH bundle (dist/remote/server.mjs) it is the `node-pty/`
// directory beside the bundle, never a node_modules that happens to sit further up the host's tree.
import { createRequire } from 'node:module';

/** Set to true by scripts/remote-bundle.mjs (esbuild `define`); undefined everywhere else. */
declare const TETHER_BUNDLED_NODE_PTY: boolean | undefined;

const require = createRequire(import.meta.url);
const bundled = typeof TETHER_BUNDLED_NODE_PTY !== 'undefined' && TETHER_BUNDLED_NODE_PTY;
const NODE_PTY_BASE = bundled ? './node-pty' : 'node-pty';

/** The node-pty files Tether loads: the package itself and the internals node-pty-internals.ts checks. */
export type NodePtyFile = '' | '/package.json' | '/lib/utils' | '/lib/unixTerminal';

export function requireNodePty(file: NodePtyFile): unknown {
  return require(`${NODE_PTY_BASE}${file}`);
}
