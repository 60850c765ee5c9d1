// The type every host dispatches through: one handler per command of the IPC contract, receiving
// the validated input and the renderer connection it came from.
import type { z } from 'zod';
import type { CommandName, CommandOutput, Commands } from '../../../shared/ipc';
import type { RendererFeed } from '../processes/renderer-link';

export type CommandHandlers = {
  [N in CommandName]: (
    input: z.output<Commands[N]['input']>,
    feed: RendererFeed,
  ) => Promise<CommandOutput<N>> | CommandOutput<N>;
};

/** The commands of a namespace: those whose name starts with `${P}.`. */
type CommandsOf<P extends string> = Extract<CommandName, `${P}.${string}`>;

/**
 * The handlers of one namespace (or of a union of them). A table typed with it must implement
 * every command of those namespaces and, being an object literal, cannot implement any other.
 */
export type NamespaceHandlers<P extends string> = Pick<CommandHandlers, CommandsOf<P>>;
