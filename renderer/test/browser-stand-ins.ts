// jsdom lacks a few browser APIs that xterm, the panes and the command palette use. These stand-ins
// do nothing, like a window that never changes size or colour scheme; import this module first.

window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

Element.prototype.scrollIntoView ??= function scrollIntoView(): void {};

// CodeMirror measures text through ranges; jsdom has no layout, so there is nothing to measure.
Range.prototype.getClientRects ??= function getClientRects(): DOMRectList {
  return Object.assign([], { item: () => null }) as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect ??= function getBoundingClientRect(): DOMRect {
  return new DOMRect();
};
