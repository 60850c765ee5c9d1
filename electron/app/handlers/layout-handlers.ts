// layout.* of the contract: the renderer's terminal layout, stored for the next start.
import type { NamespaceHandlers } from './command-handlers';
import type { LayoutStore } from '../persistence/layout-store';

export type LayoutHandlers = NamespaceHandlers<'layout'>;

export function layoutHandlers(layout: LayoutStore): LayoutHandlers {
  return {
    'layout.get': () => layout.get(),
    'layout.save': async (input) => {
      await layout.save(input);
      return { ok: true };
    },
  };
}
