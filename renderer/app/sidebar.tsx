// Every environment with its colour, name and live link status; selecting one shows it, and its
// context menu connects, reconnects, edits, duplicates or removes it. Each row reads only its own
// environment from the store, so that one link's change (a fleet cut at once sends a hundred, each
// retry another) redraws that one row, not the whole list.
import { memo, useCallback, useState } from 'react';
import { Copy, PackageX, Pencil, Plug, Plus, RefreshCw, Trash2, Unplug } from 'lucide-react';
import type { EnvironmentView } from '../../shared/ipc';
import { useEnvironments } from '../environments/environments-store';
import { useUi } from './ui-store';
import {
  addEnvironment,
  reconnectAll,
  reconnectNow,
  setConnected,
} from '../environments/environment-actions';
import { contextMenuPoint, PopupMenu, type MenuEntry } from '../ui/popup-menu';
import { linkAlert, LinkAlertDot, StatusIndicator } from '../health/status-indicator';
import { offersReconnectNow } from '../health/link-status';
import { useNow } from '../ui/use-now';
import { useHostContact } from './host-contact-store';

type MenuAt = { at: { x: number; y: number }; env: EnvironmentView };

export function Sidebar() {
  const order = useEnvironments((s) => s.order);
  const activeEnvId = useUi((s) => s.activeEnvId);
  const openDialog = useUi((s) => s.openDialog);
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const ignore = () => undefined;
  const menuItems = (env: EnvironmentView): MenuEntry[] => [
    {
      label: env.enabled ? 'Disconnect' : 'Connect',
      icon: env.enabled ? Unplug : Plug,
      onSelect: () => void setConnected(env.id, !env.enabled).catch(ignore),
    },
    {
      label: 'Reconnect now',
      icon: RefreshCw,
      disabled: !env.enabled || (env.link.kind === 'connected' && !offersReconnectNow(env)),
      onSelect: () => void reconnectNow(env.id).catch(ignore),
    },
    { label: 'Edit…', icon: Pencil, onSelect: () => openDialog({ kind: 'editEnvironment', id: env.id }) },
    ...(env.settings.kind !== 'local'
      ? [
          {
            // The copy gets no token: a token is sent only where the user typed it.
            label: 'Duplicate',
            icon: Copy,
            onSelect: () =>
              void addEnvironment({
                name: `${env.name} (copy)`,
                color: env.color,
                settings: env.settings,
                terminalProfile: env.terminalProfile,
              }).catch(ignore),
          },
          // Every kind whose connect bootstraps its target (SSH, container, exec prefix).
          ...(env.sshConnect !== undefined
            ? [
                {
                  label: 'Uninstall Tether from this host…',
                  icon: PackageX,
                  onSelect: () => openDialog({ kind: 'uninstallFromHost', id: env.id }),
                },
              ]
            : []),
          'separator' as const,
          {
            label: 'Remove…',
            icon: Trash2,
            danger: true,
            onSelect: () => openDialog({ kind: 'removeEnvironment', id: env.id }),
          },
        ]
      : []),
  ];
  return (
    <nav className="sidebar" aria-label="Environments">
      <ul>
        {order.map((id) => (
          <SidebarItem key={id} id={id} active={id === activeEnvId} onMenu={setMenu} />
        ))}
      </ul>
      {menu && (
        <PopupMenu
          label={`Actions for ${menu.env.name}`}
          items={menuItems(menu.env)}
          at={menu.at}
          onClose={closeMenu}
        />
      )}
      <div className="actions">
        <button onClick={() => openDialog({ kind: 'addEnvironment' })}>
          <Plus size={14} aria-hidden="true" />
          Add environment
        </button>
        <button onClick={() => void reconnectAll().catch(() => undefined)}>
          <RefreshCw size={14} aria-hidden="true" />
          Reconnect all
        </button>
      </div>
    </nav>
  );
}

/** One environment's row: re-rendered when that environment changes (its indicator alone ticks). */
const SidebarItem = memo(function SidebarItem({
  id,
  active,
  onMenu,
}: {
  id: string;
  active: boolean;
  onMenu: (menu: MenuAt) => void;
}) {
  const env = useEnvironments((s) => s.byId[id]);
  const selectEnv = useUi((s) => s.selectEnv);
  const hostLost = useHostContact((s) => s.lost);
  // The row's marker depends on the kind of link only, never on the clock: only its indicator ticks.
  const now = useNow(false);
  if (!env) return null;
  return (
    <li>
      <button
        className="env-item"
        aria-current={active}
        // The name stays the environment's; the marker (when shown) describes it.
        aria-describedby={linkAlert(env, now, hostLost) ? `link-alert-${id}` : undefined}
        onClick={() => selectEnv(id)}
        onContextMenu={(e) => {
          e.preventDefault();
          onMenu({ at: contextMenuPoint(e), env });
        }}
      >
        {/* The marker is in the description (aria-describedby), not in the name. */}
        <span className="env-mark" aria-hidden="true">
          <span className="env-swatch" style={{ background: env.color }} aria-hidden="true" />
          <LinkAlertDot env={env} id={`link-alert-${id}`} />
        </span>
        {/* Named by its content, so the name holds the visible text (WCAG 2.5.3). */}
        <span className="env-card">
          <span className="env-name">
            <span className="visually-hidden">Environment</span> {env.name}
          </span>{' '}
          <StatusIndicator env={env} />
        </span>
      </button>
    </li>
  );
});
