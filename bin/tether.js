#!/usr/bin/env node
// Entry point of the `tether` command: runs the bundled CLI built by `npm run build`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write(`tether: ${cli} is missing; run "npm run build" in the tether checkout first.\n`);
  process.exit(1);
}
await import(pathToFileURL(cli).href);
