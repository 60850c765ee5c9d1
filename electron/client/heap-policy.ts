// How V8 sizes the heap of a process that hosts the client (the app's main process, `tether web`,
// the client commands). Streamed output arrives as one fresh buffer per frame, held outside V8's
// heap until a collection frees it; the readings fit V8 weighing those bytes against the old
// generation's limit. Once a long-lived client's heap had settled (after about ten connects in one
// process), that limit sat so close to the live heap that V8 ran a full collection every 8 MB or so of
// output: 44 mark-compacts over six 64 MiB container runs, and about 180 ms of client CPU per
// run. A fixed growing factor of 4 (the most V8's own heuristic gives a large heap) measured 3
// mark-compacts and about 105 ms; factors of 2 and 3 still measured 30 and 24. The heap may then
// grow to four times what is live before a full collection: a few tens of MB for this client.
import { setFlagsFromString } from 'node:v8';

/** V8's --heap-growing-percent: the old generation may grow to (1 + this/100) × its live size. */
export const CLIENT_HEAP_GROWING_PERCENT = 300;

/** Applies the client's heap policy to this process; V8 reads the flag at each collection. */
export function applyClientHeapPolicy(): void {
  setFlagsFromString(`--heap-growing-percent=${CLIENT_HEAP_GROWING_PERCENT}`);
}
