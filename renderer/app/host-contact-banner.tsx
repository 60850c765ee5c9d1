// Web mode: the page lost its connection to the Tether host (`tether web` stopped or restarted).
// Says so at once, over everything, until the bridge is open again; the page keeps retrying and
// catches up by itself, so there is nothing to click. If the host is back but no longer takes this
// page's login (its data dir was reset, say), only a new login helps, and the banner says how.
import { useHostContact } from './host-contact-store';

export function HostContactBanner() {
  const lost = useHostContact((s) => s.lost);
  const loggedOut = useHostContact((s) => s.loggedOut);
  if (!lost) return null;
  return (
    <div className="host-contact-banner" role="alert">
      <strong>Lost contact with Tether</strong>
      {loggedOut ? (
        <span>
          Tether is running again but no longer knows this page&apos;s login. Open the URL that{' '}
          <code>tether web</code> printed on its first line: it logs this browser in again.
        </span>
      ) : (
        <span>
          The app host is not answering, so the links shown here are unknown. Your programs keep running on
          their servers. Retrying every second: this page comes back by itself once <code>tether web</code> is
          running again.
        </span>
      )}
    </div>
  );
}
