// Types of fetch-node-runtimes.mjs, for the tests that import it.
export const NODE_RUNTIME_VERSION: string;
