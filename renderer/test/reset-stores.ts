// Puts every renderer store back to its empty state between tests.
import { useActivity } from '../stores/activity-store';
import { useProgramTitles } from '../stores/program-titles-store';
import { useConflicts } from '../stores/conflicts-store';
import { useEditors } from '../stores/editors-store';
import { useEnvironments } from '../stores/environments-store';
import { useFiles } from '../stores/files-store';
import { useNotices } from '../stores/notices-store';
import { usePanes } from '../stores/panes-store';
import { useProcesses } from '../stores/processes-store';
import { useSshPrompts } from '../stores/ssh-prompts-store';
import { useRecentPaths } from '../stores/recent-paths-store';
import { DEFAULT_SETTINGS, useSettings } from '../stores/settings-store';
import { useToasts } from '../stores/toasts-store';
import { useTransfers } from '../stores/transfers-store';
import { useUi } from '../stores/ui-store';

export function resetStores(): void {
  useEnvironments.setState({ loaded: false, byId: {}, order: [] });
  useProcesses.setState({ byKey: {} });
  usePanes.setState({ byEnv: {} });
  useFiles.setState({ byEnv: {} });
  useEditors.setState({ tabs: [], activeByEnv: {} });
  useRecentPaths.setState({ byEnv: {} });
  useNotices.setState({ list: [] });
  useSshPrompts.setState({ list: [] });
  useTransfers.setState({ byId: {} });
  useConflicts.setState({ pending: null });
  useToasts.setState({ list: [] });
  useActivity.setState({ unseenByKey: {} });
  useProgramTitles.setState({ byKey: {} });
  useSettings.setState({ settings: DEFAULT_SETTINGS });
  useUi.setState({
    activeEnvId: null,
    panelByEnv: {},
    dialog: null,
    searchPaneId: null,
    fileFocusRequest: 0,
    renamingTabId: null,
  });
  localStorage.clear();
}
