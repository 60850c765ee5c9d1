// The starting point of the terminal component tests: the app started on `withTwoEnvironments()`
// with its host answering as a live one would (settings, no transfers or notices, the listed pty
// processes with their replayed output, resize and ack accepted), and a tab open on each process.
import type { ProcessView, Settings } from '../../shared/ipc';
import { startApp } from '../app/start-app';
import { terminalContent, usePanes } from '../panes/panes-store';
import { DEFAULT_SETTINGS } from '../settings/settings-store';
import { makeEnv, makeProcess, type FakeBridge } from './fake-bridge';
import { withTwoEnvironments } from './two-environments';

export interface ShellPaneOptions {
  /** The processes the host lists, each opened in a tab of env-1 in this order; default one `bash`. */
  processes?: ProcessView[];
  /** The pty output `processes.replay` returns for a process (seq 1); default none. */
  replay?: (processId: string) => string;
  /** Settings over the defaults, as `settings.get` answers them. */
  settings?: Partial<Settings>;
  /** The processes opened in a tab of env-1, in this order; default every listed one. */
  tabs?: string[];
  /** More host commands the test answers, registered before the app starts. */
  handlers?: (bridge: FakeBridge) => void;
}

export interface ShellPane {
  bridge: FakeBridge;
  /** Stops what `startApp()` started; call it in afterEach. */
  stop: () => void;
}

/** The UTF-8 bytes of `text`, as output arrives. */
export const utf8Bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

export async function withShellPane(options: ShellPaneOptions = {}): Promise<ShellPane> {
  const processes = options.processes ?? [makeProcess({ processId: 'shell', title: 'bash' })];
  const bridge = withTwoEnvironments();
  bridge
    .handle('environments.list', () => [makeEnv()])
    .handle('settings.get', () => ({ ...DEFAULT_SETTINGS, ...options.settings }))
    .handle('transfers.list', () => [])
    .handle('app.notices', () => [])
    .handle('processes.list', () => processes)
    .handle('processes.replay', ({ processId }) => ({
      events: [{ kind: 'output', seq: 1, stream: 'pty', data: utf8Bytes(options.replay?.(processId) ?? '') }],
      lastSeq: 1,
      shownThroughSeq: 1,
    }))
    .handle('processes.resize', () => ({ applied: true }))
    .handle('processes.ack', () => ({ ok: true }));
  options.handlers?.(bridge);
  const stop = await startApp();
  for (const processId of options.tabs ?? processes.map((p) => p.processId))
    usePanes.getState().openTab('env-1', terminalContent(processId));
  return { bridge, stop };
}
