// The one typed contract between the renderer and the AppService: every command (request →
// response) and every event stream, declared once with zod schemas, one file per namespace (each
// mirroring one electron/app/handlers/*-handlers.ts). The Electron preload bridge, the
// main-process handlers, the web bridge and the renderer client all derive from the merged objects.
import type { z } from 'zod';
import { appCommands, appEvents } from './app';
import { containerCommands } from './containers';
import { editorCommands } from './editor';
import { environmentCommands, environmentEvents } from './environments';
import { fileCommands } from './files';
import { forwardCommands, forwardEvents } from './forwards';
import { layoutCommands } from './layout';
import { previewCommands, previewEvents } from './preview';
import { processCommands, processEvents } from './processes';
import { searchCommands } from './search';
import { sshCommands, sshEvents } from './ssh';
import { transferCommands, transferEvents } from './transfers';

export { Bytes, EnvironmentId, Ok } from './common';
export * from './app';
export * from './containers';
export * from './editor';
export * from './environments';
export * from './files';
export * from './forwards';
export * from './layout';
export * from './preview';
export * from './processes';
export * from './search';
export * from './ssh';
export * from './transfers';

export const commands = {
  ...environmentCommands,
  ...processCommands,
  ...fileCommands,
  ...editorCommands,
  ...transferCommands,
  ...sshCommands,
  ...containerCommands,
  ...layoutCommands,
  ...appCommands,
  ...searchCommands,
  ...forwardCommands,
  ...previewCommands,
} as const;

const events = {
  ...environmentEvents,
  ...processEvents,
  ...transferEvents,
  ...appEvents,
  ...sshEvents,
  ...forwardEvents,
  ...previewEvents,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Commands[N]['output']>;
type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.output<Events[N]>;

export const commandNames = Object.keys(commands) as CommandName[];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(commands, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}
