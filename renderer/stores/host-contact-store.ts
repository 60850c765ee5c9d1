// Whether the page can reach its Tether host (web mode: the bridge's WebSocket). While it cannot,
// nothing the page shows of the links is current, so every link reads "unknown" and a banner says so.
import { create } from 'zustand';

interface HostContactState {
  /** True from the bridge's drop until it is open again. */
  lost: boolean;
  setLost: (lost: boolean) => void;
}

export const useHostContact = create<HostContactState>((set) => ({
  lost: false,
  setLost: (lost) => set((s) => (s.lost === lost ? s : { lost })),
}));
