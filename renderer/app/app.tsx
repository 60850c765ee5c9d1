// The window: header with the menu, the environments sidebar, the selected environment, the status
// bar, the open dialog, global keyboard shortcuts and the theme.
import { useEffect, type CSSProperties } from 'react';
import { runShortcut } from '../palette/shortcut-actions';
import { matchShortcut } from '../palette/shortcuts';
import { useEnvironments } from '../environments/environments-store';
import { useSettings } from '../settings/settings-store';
import { useUi } from './ui-store';
import { applySettingsToAll } from '../terminals/xterm/terminal-registry';
import { AppMenu } from './app-menu';
import { ClosePanesDialog } from '../panes/close-panes-dialog';
import { CommandPalette, QuickOpen } from '../palette/command-palette';
import { EnvironmentDialog } from '../environments/environment-dialog';
import { EnvironmentView } from '../environments/environment-view';
import { HostContactBanner } from './host-contact-banner';
import { NoticeStack } from '../ui/notice-stack';
import { OpenLinkDialog } from '../web-links/open-link-dialog';
import { RemoveEnvironmentDialog } from '../environments/remove-environment-dialog';
import { UninstallHostDialog } from '../ssh/uninstall-host-dialog';
import { SettingsDialog } from '../settings/settings-dialog';
import { ShortcutsDialog } from '../palette/shortcuts-dialog';
import { ConnectLogDialog } from '../environments/connect-log-dialog';
import { NewFileDialog } from '../files/new-file-dialog';
import { ForwardPortDialog } from '../forwarding/ports-panel';
import { SshPromptDialog } from '../ssh/ssh-prompt-dialog';
import { Sidebar } from './sidebar';
import { StatusBar } from './status-bar';
import { ToastStack } from '../ui/toast-stack';
import { DetectedPorts } from '../forwarding/detected-ports';

export function App({ startError }: { startError?: string | null }) {
  const activeEnvId = useUi((s) => s.activeEnvId);
  const env = useEnvironments((s) => (activeEnvId ? s.byId[activeEnvId] : undefined));
  const loaded = useEnvironments((s) => s.loaded);
  const theme = useSettings((s) => s.settings.theme);

  useEffect(() => {
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
    if (theme !== 'system' || typeof window.matchMedia !== 'function') return;
    // CSS follows the system by itself; xterm's colours are options, so re-apply them on a switch.
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => applySettingsToAll(useSettings.getState().settings);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [theme]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const id = matchShortcut(e);
      if (!id) return;
      e.preventDefault();
      e.stopPropagation();
      runShortcut(id);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <h1>Tether</h1>
        <span className="spacer" />
        <button onClick={() => useUi.getState().openDialog({ kind: 'shortcuts' })}>Shortcuts</button>
        <AppMenu />
      </header>
      <Sidebar />
      {/* The selected environment's colour, for what shows where it is (its terminal tabs). */}
      <main className="main" style={env ? ({ '--env-color': env.color } as CSSProperties) : undefined}>
        {startError ? (
          <div className="empty" role="alert">
            Could not reach the Tether app: {startError}
          </div>
        ) : env ? (
          <EnvironmentView key={env.id} env={env} />
        ) : (
          <div className="empty">{loaded ? 'Add an environment to get started.' : 'Loading…'}</div>
        )}
      </main>
      <StatusBar />
      <NoticeStack />
      <ToastStack />
      <DetectedPorts />
      <HostContactBanner />
      <Dialogs />
      {/* Last, so ssh's question stays on top of any dialog (e.g. the one testing the connection). */}
      <SshPromptDialog />
    </div>
  );
}

function Dialogs() {
  const dialog = useUi((s) => s.dialog);
  const openDialog = useUi((s) => s.openDialog);
  const byId = useEnvironments((s) => s.byId);
  const close = () => openDialog(null);
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'addEnvironment':
      return <EnvironmentDialog onClose={close} />;
    case 'editEnvironment': {
      const env = byId[dialog.id];
      return env ? <EnvironmentDialog existing={env} onClose={close} /> : null;
    }
    case 'removeEnvironment': {
      const env = byId[dialog.id];
      // Keyed by environment: switching the open dialog to another one starts it afresh.
      return env ? <RemoveEnvironmentDialog key={env.id} env={env} onClose={close} /> : null;
    }
    case 'uninstallFromHost': {
      const env = byId[dialog.id];
      return env ? <UninstallHostDialog key={env.id} env={env} onClose={close} /> : null;
    }
    case 'newFile':
      return byId[dialog.envId] ? <NewFileDialog envId={dialog.envId} onClose={close} /> : null;
    case 'forwardPort':
      return byId[dialog.envId] ? <ForwardPortDialog envId={dialog.envId} onClose={close} /> : null;
    case 'connectLog': {
      const env = byId[dialog.id];
      return env ? <ConnectLogDialog envId={env.id} envName={env.name} onClose={close} /> : null;
    }
    case 'shortcuts':
      return <ShortcutsDialog onClose={close} />;
    case 'settings':
      return <SettingsDialog onClose={close} />;
    case 'commandPalette':
      return <CommandPalette onClose={close} />;
    case 'quickOpen':
      return <QuickOpen onClose={close} />;
    case 'closePanes':
      return <ClosePanesDialog envId={dialog.envId} paneIds={dialog.paneIds} onClose={close} />;
    case 'openLink':
      // Keyed by link: a second click on another link starts the dialog afresh.
      return <OpenLinkDialog key={dialog.url} url={dialog.url} envId={dialog.envId} onClose={close} />;
  }
}
