// The command palette (Ctrl+Shift+P / F1): every command with its keys, filtered as you type by the
// starts of words (palette-match.ts); and quick switch (Ctrl+P): environments, terminal tabs and
// recently opened folders, filtered the same way.
import { Command } from 'cmdk';
import { Folder, Server, SquareTerminal } from 'lucide-react';
import type { ReactNode } from 'react';
import { navigate } from '../files/file-actions';
import { appCommands } from './commands';
import { useEnvironments } from '../environments/environments-store';
import { envPanes, usePanes } from '../panes/panes-store';
import { useRecentPaths } from '../files/recent-paths-store';
import { useTitleChanges } from '../panes/pane-kinds';
import { currentTabTitle } from '../terminals/terminal-tab';
import { useUi } from '../app/ui-store';
import { useRestoreFocus } from '../ui/restore-focus';
import { paletteScore } from './palette-match';

function Palette(props: { label: string; placeholder: string; onClose: () => void; children: ReactNode }) {
  const ref = useRestoreFocus<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className="backdrop palette-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}
    >
      <Command
        className="palette"
        label={props.label}
        filter={paletteScore}
        loop
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <Command.Input autoFocus placeholder={props.placeholder} aria-label={props.label} />
        <Command.List>
          <Command.Empty>Nothing matches.</Command.Empty>
          {props.children}
        </Command.List>
      </Command>
    </div>
  );
}

export function CommandPalette({ onClose }: { onClose: () => void }) {
  const run = (fn: () => void) => {
    onClose();
    fn();
  };
  return (
    <Palette label="Command palette" placeholder="Type a command" onClose={onClose}>
      {appCommands().map((c) => (
        <Command.Item key={c.id} value={c.label} onSelect={() => run(c.run)}>
          <span className="palette-label">{c.label}</span>
          {c.keys && <kbd>{c.keys}</kbd>}
        </Command.Item>
      ))}
    </Palette>
  );
}

export function QuickSwitch({ onClose }: { onClose: () => void }) {
  const { byId, order } = useEnvironments();
  const panesByEnv = usePanes((s) => s.byEnv);
  useTitleChanges();
  const recent = useRecentPaths((s) => s.byEnv);
  const ui = useUi.getState();
  const run = (fn: () => void) => {
    onClose();
    fn();
  };
  const envs = order.map((id) => byId[id]).filter((e) => e !== undefined);
  return (
    <Palette label="Quick switch" placeholder="Environment, terminal or folder" onClose={onClose}>
      <Command.Group heading="Environments">
        {envs.map((env) => (
          <Command.Item
            key={env.id}
            value={`env ${env.name}`}
            onSelect={() => run(() => ui.selectEnv(env.id))}
          >
            <Server size={14} aria-hidden="true" style={{ color: env.color }} />
            <span className="palette-label">{env.name}</span>
          </Command.Item>
        ))}
      </Command.Group>
      <Command.Group heading="Terminals">
        {envs.flatMap((env) =>
          envPanes(panesByEnv, env.id).tabs.map((tab, index) => {
            const title = currentTabTitle(env.id, tab);
            return (
              <Command.Item
                key={tab.id}
                value={`terminal ${env.name} ${index + 1} ${title} ${tab.id}`}
                onSelect={() =>
                  run(() => {
                    ui.selectEnv(env.id);
                    ui.showPanel(env.id, 'terminals');
                    usePanes.getState().activateTab(env.id, tab.id);
                  })
                }
              >
                <SquareTerminal size={14} aria-hidden="true" />
                <span className="palette-label">
                  {index + 1}: {title}
                </span>
                <span className="muted">{env.name}</span>
              </Command.Item>
            );
          }),
        )}
      </Command.Group>
      <Command.Group heading="Recent folders">
        {envs.flatMap((env) =>
          (recent[env.id] ?? []).map((path) => (
            <Command.Item
              key={`${env.id}:${path}`}
              value={`folder ${env.name} ${path}`}
              onSelect={() =>
                run(() => {
                  ui.selectEnv(env.id);
                  ui.showPanel(env.id, 'files');
                  void navigate(env.id, path);
                })
              }
            >
              <Folder size={14} aria-hidden="true" />
              <span className="palette-label mono">{path}</span>
              <span className="muted">{env.name}</span>
            </Command.Item>
          )),
        )}
      </Command.Group>
    </Palette>
  );
}
