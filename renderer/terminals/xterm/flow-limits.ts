// Numbers that shape how output flows into a terminal and how input flows out of it.

/** Stop handing output to xterm while this many bytes are written but not yet parsed. */
export const HIGH_WATERMARK_BYTES = 256 * 1024;
/** Resume handing output to xterm once the unparsed backlog drops to this. */
export const LOW_WATERMARK_BYTES = 64 * 1024;
/** Consumed bytes are acknowledged at most this often... */
export const ACK_INTERVAL_MS = 50;
/** ...or immediately once this many are waiting, so the server's window never runs dry. */
export const ACK_BATCH_BYTES = 128 * 1024;
/** Pasted text is sent in pieces of this many characters, each awaited before the next. */
export const PASTE_CHUNK_CHARS = 4096;
