// Holds a blinking cursor still while the user types: from the first key until the keys pause.
// xterm's DOM renderer blinks the cursor with an endless CSS animation, and Chromium services such
// an animation in every frame: while it runs, the page draws a frame every vsync (about 2 ms of
// main-thread work each), each key restarts the animation, and a key's echo waits for a frame that
// draws. A class on the terminal's host turns the animation off (styles.css, `.cursor-still`), so
// the cursor shows solid, as it does anyway right after each key, and no frame runs for it.
// The WebGL renderer blinks by timer and draws no frame between blinks; the class changes nothing there.

/** The keys have paused this long: the cursor blinks again. */
export const CURSOR_STILL_MS = 1_000;

export const CURSOR_STILL_CLASS = 'cursor-still';

export class TypingCursor {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly host: HTMLElement,
    private readonly stillMs = CURSOR_STILL_MS,
  ) {}

  /** A key was typed: the cursor stays still until no key came for `stillMs`. */
  typed(): void {
    if (this.timer === null) this.host.classList.add(CURSOR_STILL_CLASS);
    else clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.host.classList.remove(CURSOR_STILL_CLASS);
    }, this.stillMs);
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.host.classList.remove(CURSOR_STILL_CLASS);
  }
}
