// The daemon's way out when nobody needs it: once it has had no connection and no session for
// `idleExitMs`, it shuts down. Held sessions keep it alive (they expire after their own TTL).
export interface IdleState {
  connections(): number;
  sessions(): number;
}

export class IdleExit {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly idleExitMs: number,
    private readonly state: IdleState,
    private readonly onIdle: () => void,
  ) {}

  /** Re-evaluates after a connection opened or closed or a session expired. */
  readonly update = (): void => {
    const idle = this.state.connections() === 0 && this.state.sessions() === 0;
    if (!idle) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      return;
    }
    if (this.timer) return;
    // Any connection or session in the meantime clears this timer (update runs on every change).
    this.timer = setTimeout(this.onIdle, this.idleExitMs);
  };
}
