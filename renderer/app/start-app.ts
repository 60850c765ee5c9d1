// Boots the renderer against the AppService: subscribes to every event stream first (so nothing is
// missed), restores the stored terminal layout, then loads environments, processes, transfers and
// settings, prunes restored panes whose process is gone, and at the host's start (a first launch or
// a restart) opens a shell in the Local environment when it has no live one.
import type { EnvironmentView } from '../../shared/ipc';
import { appCommands } from '../palette/commands';
import { invoke, onEvent } from '../ipc/ipc-client';
import { useEnvironments } from '../environments/environments-store';
import { useNotices } from '../ui/notices-store';
import { envPanes, leaves, usePanes, type PaneContent } from '../panes/panes-store';
import { useProcesses } from '../processes/processes-store';
import { useForwards } from '../forwarding/forwards-store';
import { useDetectedPorts } from '../forwarding/detected-ports';
import { usePreviews } from '../forwarding/previews-store';
import { requestOpenLink } from '../web-links/link-actions';
import { processKeyString } from '../processes/process-key';
import { useSettings } from '../settings/settings-store';
import { useSshPrompts } from '../ssh/ssh-prompts-store';
import { useTransfers } from '../transfers/transfers-store';
import { useUi } from './ui-store';
import { applySettingsToAll, routeEvents } from '../terminals/xterm/terminal-registry';
import { retainShownContent } from '../panes/pane-kinds';
import { guardUnsavedEdits } from '../editor/unsaved-guard';
import { reportUnsavedEdits, resendUnsavedEdits } from '../editor/unsaved-report';
import {
  discardEnvironmentChanges,
  flushEnvironmentChanges,
  onEnvironmentChangeApplied,
  queueEnvironmentChange,
} from '../environments/environment-changes';
import { forgetEnvironment, forwardNetworkSignals } from '../environments/environment-actions';
import { syncLayout } from '../panes/layout-sync';
import { noteOutput, noteProcessChange, trackActivity } from '../panes/activity-tracking';
import { commandChanged, environmentChanged, processChanged, transferChanged } from './notify';
import { isBeingReplaced } from '../processes/process-actions';
import { openFirstShell, processesLoaded } from '../processes/first-shell';

/** The host had a stored terminal layout at start: not a first launch. */
let hostHadLayout = false;

export async function startApp(): Promise<() => void> {
  onEnvironmentChangeApplied((before, env) => {
    environmentChanged(before, env);
    if (env.link.kind === 'connected' && before?.link.kind !== 'connected')
      void loadProcesses(env.id).then(() => processesLoaded(env.id));
  });
  const offs = [
    guardUnsavedEdits(),
    reportUnsavedEdits(),
    onEvent('environments.changed', queueEnvironmentChange),
    onEvent('environments.removed', ({ id }) => {
      // A queued change must not bring the environment back after it is gone.
      flushEnvironmentChanges();
      forgetEnvironment(id);
    }),
    onEvent('processes.changed', (view) => {
      const before = useProcesses.getState().byKey[processKeyString(view)];
      useProcesses.getState().upsert(view);
      processChanged(before, view);
      commandChanged(before, view);
      noteProcessChange(before, view);
    }),
    onEvent('processes.removed', (key) => {
      useProcesses.getState().remove(key);
      // A restarted process's panes move to its successor (restartProcess) instead of closing.
      if (isBeingReplaced(key)) return;
      const live = new Set(
        Object.values(useProcesses.getState().byKey)
          .filter((p) => p.envId === key.envId)
          .map((p) => p.processId),
      );
      usePanes.getState().prune(key.envId, liveProcessesOnly(live));
    }),
    onEvent('processes.events', (batches) => {
      noteOutput(batches);
      routeEvents(batches);
    }),
    onEvent('forwards.changed', ({ envId, forwards }) => useForwards.getState().setForEnv(envId, forwards)),
    onEvent('forwards.detected', ({ envId, forwards }) => useDetectedPorts.getState().add(envId, forwards)),
    onEvent('preview.changed', (state) => usePreviews.getState().set(state)),
    // A preview's page linked elsewhere: opened as a terminal's link is (asked first if untrusted).
    onEvent('preview.openLink', ({ envId, url }) => requestOpenLink(url, envId)),
    onEvent('transfers.changed', (t) => {
      const before = useTransfers.getState().byId[t.id];
      useTransfers.getState().upsert(t);
      transferChanged(before, t);
    }),
    onEvent('app.notice', (notice) => useNotices.getState().add(notice)),
    onEvent('ssh.prompt', (prompt) => useSshPrompts.getState().add(prompt)),
    onEvent('ssh.promptClosed', ({ id }) => useSshPrompts.getState().remove(id)),
    // The desktop app's native menu runs commands of the same registry as the palette.
    onEvent('app.menuCommand', ({ id }) =>
      appCommands()
        .find((c) => c.id === id)
        ?.run(),
    ),
    onEvent('settings.changed', (s) => {
      useSettings.getState().set(s);
      applySettingsToAll(s);
    }),
    forwardNetworkSignals(window),
  ];
  offs.push(
    trackActivity(),
    // Each pane kind frees what no pane shows any more (a terminal: its xterm).
    usePanes.subscribe((state) => retainShownContent(state.byEnv)),
  );

  const layout = await syncLayout();
  hostHadLayout = layout.restored;
  offs.push(layout.stop);
  await loadAll();
  return () => {
    offs.forEach((off) => off());
    discardEnvironmentChanges();
    onEnvironmentChangeApplied(null);
  };
}

/** Loads (or reloads, after the bridge reconnected) everything the AppService knows. */
export async function loadAll(): Promise<void> {
  const [envs, settings, transfers] = await Promise.all([
    invoke('environments.list', {}),
    invoke('settings.get', {}),
    invoke('transfers.list', {}),
  ]);
  useSettings.getState().set(settings);
  useTransfers.getState().setAll(transfers);
  // Changes queued before the list are older than it: applied first, so the list wins.
  flushEnvironmentChanges();
  useEnvironments.getState().setAll(envs);
  void loadNotices();
  void loadSshPrompts();
  resendUnsavedEdits();
  if (useUi.getState().activeEnvId === null) useUi.getState().selectEnv(envs[0]?.id ?? null);
  const viewAtLoad = shownView();
  await Promise.all(envs.map((env) => loadProcesses(env.id)));
  void openStartupShell(envs, viewAtLoad);
}

async function loadNotices(): Promise<void> {
  try {
    for (const notice of await invoke('app.notices', {})) useNotices.getState().add(notice);
  } catch {
    // A host without notices (or a bridge that just dropped) leaves the list as events fill it.
  }
}

/** Prompts asked before this renderer attached (or while it was reloading) are shown too. */
async function loadSshPrompts(): Promise<void> {
  try {
    // The host's list is the truth: after the bridge reconnected, prompts closed meanwhile go.
    useSshPrompts.getState().setAll(await invoke('ssh.prompts', {}));
  } catch {
    // As with notices: events fill the list from here on.
  }
}

async function loadProcesses(envId: string): Promise<void> {
  try {
    const list = await invoke('processes.list', { envId });
    useProcesses.getState().setForEnv(envId, list);
    usePanes.getState().prune(envId, liveProcessesOnly(new Set(list.map((p) => p.processId))));
  } catch {
    // Not connected yet: the list is fetched again when the environment connects.
  }
}

/** Keeps every pane but a terminal whose process the AppService no longer knows (e.g. after a restart). */
function liveProcessesOnly(live: Set<string>): (content: PaneContent) => boolean {
  return (content) => content.kind !== 'terminal' || live.has(content.processId);
}

/**
 * The startup shell, one policy for a first launch and an app restart: the first renderer of the
 * host's run (`app.claimStartup`; a reload is not one) opens a shell in the Local environment once
 * it connects and its processes are listed (first-shell.ts), unless a pane there already shows a
 * running process (after a restart Local's processes have ended, their panes kept). A first launch
 * shows it (unless the user has moved on meanwhile); a restart leaves the view where the restored
 * layout put it.
 */
async function openStartupShell(envs: EnvironmentView[], viewAtLoad: string): Promise<void> {
  const local = envs.find((e) => e.settings.kind === 'local');
  if (!local) return;
  let first = false;
  try {
    ({ first } = await invoke('app.claimStartup', {}));
  } catch {
    // A bridge that just dropped: loadAll runs again once it is back, and asks again.
  }
  if (!first) return;
  openFirstShell(local.id, {
    unless: () => hasLiveTerminal(local.id),
    select: () => !hostHadLayout && shownView() === viewAtLoad,
  });
}

/** What the user is looking at: the selected environment and the panels chosen in each. */
function shownView(): string {
  const { activeEnvId, panelByEnv } = useUi.getState();
  return JSON.stringify([activeEnvId, panelByEnv]);
}

/** Some pane of the environment shows a process that is still running (or starting). */
function hasLiveTerminal(envId: string): boolean {
  const processes = useProcesses.getState().byKey;
  return envPanes(usePanes.getState().byEnv, envId).tabs.some((tab) =>
    leaves(tab.root).some(({ content }) => {
      if (content.kind !== 'terminal') return false;
      const state = processes[processKeyString({ envId, processId: content.processId })]?.state;
      return state === 'running' || state === 'starting';
    }),
  );
}
