// `tether exec-server`: the command-line front of the exec-server (options compatible with
// `codex exec-server` where they overlap). Startup errors are printed and exit with code 1.
import type { Command } from 'commander';
import {
  CODEX_SESSION_TTL_MS,
  DEFAULT_EXITED_PROCESS_TTL_MS,
  DEFAULT_MAX_OPEN_FILES,
  DEFAULT_MAX_PROCESSES_PER_SESSION,
  DEFAULT_MAX_QUEUED_REQUESTS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_RETAINED_OUTPUT_BYTES,
  DEFAULT_RETAINED_OUTPUT_CHUNKS,
  DEFAULT_SESSION_TTL_MS,
  DEFAULT_WRITE_ID_WINDOW,
  MAX_IN_FLIGHT_REQUESTS,
} from './limits';
import { runExecServer } from './server';
import { parseServerOptions, StartupError, type RawServerOptions } from './server-options';
import { errorMessage } from '../../shared/error-message';

export function registerExecServerCommand(program: Command): void {
  program
    .command('exec-server')
    .description(
      'Serve the Codex exec-server protocol (processes, files) over WebSocket, a unix socket or stdio.',
    )
    .option(
      '--listen <url>',
      '`ws://IP:PORT`, `wss://IP:PORT` (port 0 picks one), `unix:PATH` (in a 0700 directory) or `stdio`',
      'ws://127.0.0.1:0',
    )
    .option('--tls-cert <file>', 'PEM certificate (chain) served by a `wss://` listener')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option(
      '--ws-auth <mode>',
      'WebSocket authentication (required for ws and wss): `capability-token`, `signed-bearer-token`, or `none` (loopback trials only)',
    )
    .option('--ws-token-file <path>', 'file holding the bearer token (whitespace trimmed)')
    .option('--ws-token-sha256 <hex>', 'SHA-256 (64 hex digits) of the bearer token')
    .option('--ws-shared-secret-file <path>', 'HS256 secret for signed bearer tokens (at least 32 bytes)')
    .option('--ws-issuer <issuer>', 'required `iss` claim of signed bearer tokens')
    .option('--ws-audience <audience>', 'required `aud` entry of signed bearer tokens')
    .option('--ws-max-clock-skew-seconds <n>', 'clock skew allowed for exp/nbf (default 30)')
    .option(
      '--session-ttl-ms <ms>',
      `detached session lifetime (default ${DEFAULT_SESSION_TTL_MS}, 3 h; codex keeps ${CODEX_SESSION_TTL_MS})`,
    )
    .option('--idle-exit-ms <ms>', 'with `unix:PATH`: exit after this long with no connection and no session')
    .option(
      '--exited-process-ttl-ms <ms>',
      `how long a closed process stays readable (default ${DEFAULT_EXITED_PROCESS_TTL_MS})`,
    )
    .option(
      '--retained-output-bytes <n>',
      `output bytes retained per process (default ${DEFAULT_RETAINED_OUTPUT_BYTES})`,
    )
    .option(
      '--retained-output-chunks <n>',
      `output chunks retained per process (default ${DEFAULT_RETAINED_OUTPUT_CHUNKS})`,
    )
    .option('--write-id-window <n>', `writeIds remembered per process (default ${DEFAULT_WRITE_ID_WINDOW})`)
    .option(
      '--concurrent-requests <n>',
      `requests served at once per connection (default ${MAX_IN_FLIGHT_REQUESTS})`,
    )
    .option(
      '--max-queued-requests <n>',
      `requests waiting per connection before more are refused (default ${DEFAULT_MAX_QUEUED_REQUESTS})`,
    )
    .option('--max-sessions <n>', `sessions held at once (default ${DEFAULT_MAX_SESSIONS})`)
    .option(
      '--max-processes-per-session <n>',
      `unfinished processes per session (default ${DEFAULT_MAX_PROCESSES_PER_SESSION})`,
    )
    .option('--max-open-files <n>', `fs/open handles per connection (default ${DEFAULT_MAX_OPEN_FILES})`)
    .option('--log-level <level>', 'error, warn, info or debug (stderr)', 'warn')
    .action(async (raw: RawServerOptions) => {
      try {
        await runExecServer(parseServerOptions(raw));
      } catch (error) {
        const message =
          error instanceof StartupError ? error.message : `failed to start: ${errorMessage(error)}`;
        process.stderr.write(`tether exec-server: ${message}\n`);
        process.exit(1);
      }
    });
}
