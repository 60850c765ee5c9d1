// Terse leveled logging to stderr; stdout belongs to the protocol (stdio) or the listen URL (ws).

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(level: LogLevel): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at =
    (name: LogLevel) =>
    (message: string): void => {
      if (LOG_LEVELS.indexOf(name) <= threshold)
        process.stderr.write(`tether exec-server ${name}: ${message}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
