// Whether the page can reach its Tether host (web mode: the bridge's WebSocket). While it cannot,
// nothing the page shows of the links is current, so every link reads "unknown" and a banner says so.
import { create } from 'zustand';

interface HostContactState {
  /** True from the bridge's drop until it is open again. */
  lost: boolean;
  /** While lost: the host answers again but refuses this page's login (it must log in anew). */
  loggedOut: boolean;
  setLost: (lost: boolean) => void;
  setLoggedOut: (loggedOut: boolean) => void;
}

export const useHostContact = create<HostContactState>((set) => ({
  lost: false,
  loggedOut: false,
  setLost: (lost) => set((s) => (s.lost === lost ? s : { lost, loggedOut: false })),
  // A probe's answer can land after the socket reopened: it then says nothing any more.
  setLoggedOut: (loggedOut) => set((s) => (!s.lost || s.loggedOut === loggedOut ? s : { loggedOut })),
}));
