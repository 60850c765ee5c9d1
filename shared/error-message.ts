// One way to turn anything thrown into the text shown to a user or written to a log.

/** The message of an Error, or the thrown value as text when it is not one. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
