// Chromium switches the desktop app starts with, for its one page: a terminal whose echo is the
// whole point of a keystroke. Kept apart from main.ts so the bench can start Chromium the same way.

/**
 * Chromium features turned off. DeferRendererTasksAfterInput: after a key press Chromium holds the
 * page's network, timer and message tasks until the next frame, so a keystroke's echo arriving
 * before that frame waits for it and then misses it, drawn a frame later (measured: keydown → glyph
 * p50 about 30 ms with it, about 20 without, in the bench's pixels case).
 */
export const DISABLED_CHROMIUM_FEATURES = ['DeferRendererTasksAfterInput'];

/** The same as command-line arguments, for a Chromium the bench starts. */
export const DESKTOP_RENDERER_ARGS = [`--disable-features=${DISABLED_CHROMIUM_FEATURES.join(',')}`];
