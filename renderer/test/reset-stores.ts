// Puts every renderer store back to its empty state between tests.
import { useActivity } from '../panes/activity-store';
import { useProgramTitles } from '../terminals/program-titles-store';
import { useConflicts } from '../transfers/conflicts-store';
import { useEditors } from '../editor/editors-store';
import { useEnvironments } from '../environments/environments-store';
import { useFiles } from '../files/files-store';
import { useNotices } from '../ui/notices-store';
import { usePanes } from '../panes/panes-store';
import { useProcesses } from '../processes/processes-store';
import { useSshPrompts } from '../ssh/ssh-prompts-store';
import { useRecentPaths } from '../files/recent-paths-store';
import { DEFAULT_SETTINGS, useSettings } from '../settings/settings-store';
import { useToasts } from '../ui/toasts-store';
import { useTransfers } from '../transfers/transfers-store';
import { useUi } from '../app/ui-store';
import { useSearch } from '../search/search-store';
import { useForwards } from '../forwarding/forwards-store';
import { useDetectedPorts } from '../forwarding/detected-ports';

export function resetStores(): void {
  useEnvironments.setState({ loaded: false, byId: {}, order: [] });
  useProcesses.setState({ byKey: {} });
  useForwards.setState({ byEnv: {} });
  useDetectedPorts.setState({ list: [], shown: new Set() });
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
  useSearch.setState({ listings: {}, forms: {}, finds: {}, findFocusRequest: 0 });
  useUi.setState({
    activeEnvId: null,
    panelByEnv: {},
    dialog: null,
    searchPaneId: null,
    fileFocusRequest: 0,
    openFolderRequest: null,
    renamingTabId: null,
  });
  localStorage.clear();
}
