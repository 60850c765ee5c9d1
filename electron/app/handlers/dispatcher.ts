// The one entry point both hosts use for inbound commands: checks the name against the contract,
// validates the input with its zod schema (the renderer is the trust boundary), runs the handler,
// checks the output, and turns any failure into an IpcErrorPayload the user can read. Never throws.
import type { z } from 'zod';
import { commands, isCommandName, Ok, type IpcErrorPayload } from '../../../shared/ipc';
import { ClientError } from '../../client/client-error';
import { ErrorCode } from '../../../shared/protocol';
import { AppError } from '../app-error';
import type { CommandHandlers } from './command-handlers';
import type { RendererFeed } from '../processes/renderer-link';
import { errorMessage } from '../../../shared/error-message';

export type InvokeResult = { ok: true; output: unknown } | { ok: false; error: IpcErrorPayload };

export async function dispatch(
  handlers: CommandHandlers,
  feed: RendererFeed,
  name: unknown,
  input: unknown,
): Promise<InvokeResult> {
  if (!isCommandName(name)) {
    const shown = typeof name === 'string' ? `"${name.slice(0, 100)}"` : `of type ${typeof name}`;
    return { ok: false, error: { code: 'unknownCommand', message: `Unknown command ${shown}.` } };
  }
  const spec = commands[name];
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'invalidInput', message: `Invalid input for ${name}: ${describeIssues(parsed.error)}` },
    };
  }
  try {
    const handler = handlers[name] as (input: unknown, feed: RendererFeed) => unknown;
    const output = await handler(parsed.data, feed);
    // `{ ok: true }` (every keystroke's processes.write, every ack) is typed by the handler and
    // cannot carry more than the contract says: checking it again is work on the typing path.
    if (spec.output === Ok) return { ok: true, output };
    const checked = spec.output.safeParse(output);
    if (!checked.success) {
      console.error(`tether: ${name} produced an invalid result: ${describeIssues(checked.error)}`);
      return {
        ok: false,
        error: { code: 'internal', message: `${name} produced an unexpected result; please report this.` },
      };
    }
    return { ok: true, output: checked.data };
  } catch (error) {
    return { ok: false, error: toIpcError(name, error) };
  }
}

function toIpcError(name: string, error: unknown): IpcErrorPayload {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  if (error instanceof ClientError) {
    switch (error.code) {
      case 'rpc':
        return {
          code: error.rpc?.code === ErrorCode.notFound ? 'notFound' : 'remote',
          message: error.rpc ? `The server says: ${error.rpc.message}` : error.message,
        };
      case 'unsupported':
        return { code: 'unsupported', message: error.message };
      case 'invalidArgument':
        return { code: 'invalidInput', message: error.message };
      // What a server sent cannot be used here: the server's fault, not the link's.
      case 'unsafeName':
      case 'sizeMismatch':
      case 'tooLarge':
        return { code: 'remote', message: error.message };
      case 'aborted':
      case 'exists':
        return { code: 'conflict', message: error.message };
      default:
        return { code: 'disconnected', message: error.message };
    }
  }
  console.error(`tether: ${name} failed unexpectedly:`, error);
  const message = errorMessage(error);
  return { code: 'internal', message: `${name} failed unexpectedly: ${message}` };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}
