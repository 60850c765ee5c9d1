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
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.state.connections() === 0 && this.state.sessions() === 0) this.onIdle();
    }, this.idleExitMs);
  };
}
