// Types of fetch-node-runtimes.mjs, for the tests that import it.
export { NODE_RUNTIME_VERSION } from './node-runtimes.mjs';
