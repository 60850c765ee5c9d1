// Renderer entry: connects to the host's bridge, starts the stores, renders the app. After the web
// bridge reconnects, it reloads the lists and lets every terminal catch up on missed output. While
// the bridge is down, the page says it lost contact with Tether (links unknown).
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { App } from './app/app';
import { resolveBridge } from './ipc/resolve-bridge';
import { setBridge } from './ipc/ipc-client';
import { errorMessage } from '../shared/error-message';
import { loadAll, startApp } from './app/start-app';
import { catchUpAll } from './terminals/xterm/terminal-registry';
import { setLinkOpener } from './web-links/link-actions';
import { setHostKind } from './ipc/host-kind';
import { useHostContact } from './app/host-contact-store';

const { bridge, onStatus, openLink, host } = resolveBridge();
setHostKind(host);
const root = createRoot(document.getElementById('root') as HTMLElement);
root.render(<App />);

setBridge(bridge);
setLinkOpener(openLink);
// From the very start, not after startApp: a host gone before the first load must show too.
onStatus?.((status) => {
  if (status === 'closed') {
    useHostContact.getState().setLost(true);
    void checkLogin();
  }
  if (status === 'open') useHostContact.getState().setLost(false);
});

/** While the socket is down: a 401 for the page itself means the host is back but logged us out. */
async function checkLogin(): Promise<void> {
  try {
    const answer = await fetch(window.location.pathname, { method: 'HEAD', cache: 'no-store' });
    useHostContact.getState().setLoggedOut(answer.status === 401);
  } catch {
    // Nothing listening: the host is still away, which the banner already says.
  }
}
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
