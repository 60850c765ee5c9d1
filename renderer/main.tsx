// Renderer entry: connects to the host's bridge, starts the stores, renders the app. After the web
// bridge reconnects, it reloads the lists and lets every terminal catch up on missed output.
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { App } from './app/app';
import { resolveBridge } from './ipc/resolve-bridge';
import { setBridge } from './ipc/ipc-client';
import { errorMessage } from '../shared/error-message';
import { loadAll, startApp } from './app/start-app';
import { catchUpAll } from './terminals/xterm/terminal-registry';
import { setLinkOpener } from './environments/link-actions';
import { setHostKind } from './ipc/host-kind';

const { bridge, onStatus, openLink, host } = resolveBridge();
setHostKind(host);
const root = createRoot(document.getElementById('root') as HTMLElement);
root.render(<App />);

setBridge(bridge);
setLinkOpener(openLink);
startApp().then(
  () => {
    let dropped = false;
    onStatus?.((status) => {
      if (status === 'closed') dropped = true;
      if (status === 'open' && dropped) {
        dropped = false;
        catchUpAll();
        void loadAll().catch(() => undefined);
      }
    });
  },
  (error: unknown) => root.render(<App startError={errorMessage(error)} />),
);
