// Loaded with `node --import` (after tsx) in the child that runs the built Electron main bundle:
// installs the hook that maps `electron` to the recording stand-in.
import { register } from 'node:module';
import { URL } from 'node:url';

register('./resolve-electron.mjs', import.meta.url, {
  data: { standInUrl: new URL('./electron.ts', import.meta.url).href },
});
