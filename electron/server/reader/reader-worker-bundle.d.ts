// The reader thread's bundled code as a string (scripts/reader-worker-plugin.mjs builds it from
// reader-worker.ts), so the server can start its worker with `eval` from wherever it runs.
declare module 'virtual:tether-reader-worker' {
  const source: string;
  export default source;
}
