// The type every host dispatches through: one handler per command of the IPC contract, receiving
// the validated input and the renderer connection it came from.
import type { z } from 'zod';
import type { CommandName, CommandOutput, Commands } from '../../shared/ipc';
import type { RendererLink } from './renderer-link';

export type CommandHandlers = {
  [N in CommandName]: (
    input: z.output<Commands[N]['input']>,
    link: RendererLink,
  ) => Promise<CommandOutput<N>> | CommandOutput<N>;
};
