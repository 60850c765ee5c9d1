// The layout namespace: the stored terminal layout (its shape is ../pane-layout.ts), the commands
// of electron/app/handlers/layout-handlers.ts.
import { command, type CommandsOfNamespace, Empty, Ok } from './common';
import { PaneLayout } from '../pane-layout';

export const layoutCommands = {
  /** The terminal layout stored at the last save (null before the first), for a restarted app. */
  'layout.get': command(Empty, PaneLayout.nullable()),
  /** Stores the renderer's current terminal layout (the last one sent wins). */
  'layout.save': command(PaneLayout, Ok),
} as const satisfies CommandsOfNamespace<'layout'>;
