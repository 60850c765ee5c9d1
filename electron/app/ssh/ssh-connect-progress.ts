// Where one SSH connect is, for the UI: the stage the bootstrap last reported (with its live detail
// and install progress), the stage and ssh message of the last failed attempt, and the bounded
// connect log behind *Show log*. Fed by the bootstrap's hooks and by the client's link state.
import type { SshConnectView, SshStage } from '../../../shared/ipc';
import type { ConnectionState } from '../../client/api';
import type { SshStageEvent } from '../../client/transports/ssh/ssh-hooks';
import { SSH_CONNECT_LOG_LINE_CHARS, SSH_CONNECT_LOG_LINES } from '../limits';

export class SshConnectProgress {
  private current: SshStageEvent = { stage: 'connecting' };
  /** The stages the current attempt entered, in order: only these are shown as done. */
  private passed: SshStage[] = ['connecting'];
  private failure: SshConnectView['failure'] = null;
  /** The failure of the current attempt is in the log (the client repeats its state while waiting). */
  private failureLogged = false;
  private readonly log: string[] = [];

  /**
   * `changed` runs after a change the UI shows: `urgent` for a new stage and for an upload's last
   * bytes (sent at once), not for install progress on the way and log lines (which may be throttled).
   */
  constructor(private readonly changed: (urgent: boolean) => void) {}

  get view(): SshConnectView {
    return {
      ...this.current,
      failure: this.failure,
      passed: [...this.passed],
      logLines: this.log.length,
    };
  }

  get logLines(): string[] {
    return [...this.log];
  }

  onStage(event: SshStageEvent): void {
    // A new attempt starts at 'connecting': the log marks it, and the last attempt's failure is
    // history (kept in the log) rather than what is happening now.
    const newAttempt =
      event.stage === 'connecting' && (this.current.stage !== 'connecting' || this.failure !== null);
    if (newAttempt) {
      this.append('— connecting —');
      this.failure = null;
      this.failureLogged = false;
      this.passed = [];
    }
    // The last piece of an upload goes out at once too: a throttled 100 % could be overtaken by the
    // next stage, and the install would never be seen to finish.
    const uploaded = event.bytesTotal !== undefined && event.bytesSent === event.bytesTotal;
    const urgent = newAttempt || event.stage !== this.current.stage || uploaded;
    this.current = { ...event };
    this.enter(event.stage);
    if (event.stage === 'connected') this.failure = null;
    this.changed(urgent);
  }

  onLog(line: string): void {
    this.append(line);
    this.changed(false);
  }

  /**
   * The client's link state: a failed or retrying connect fails at the stage it had reached. The
   * caller sends the environment's view right after, so this does not announce the change itself.
   */
  linkChanged(state: ConnectionState): void {
    if (state.kind === 'connected') {
      this.current = { stage: 'connected' };
      this.failure = null;
      this.enter('connected');
    } else if (
      (state.kind === 'reconnecting' || state.kind === 'failed') &&
      this.current.stage !== 'connected'
    ) {
      this.failed(state.reason);
    } else if (state.kind === 'reconnecting') {
      // The established link dropped: the next attempt starts from the beginning, and over a
      // live master it goes straight on to starting the bridge: the stages between never happen.
      this.current = { stage: 'connecting', detail: state.reason };
      this.passed = ['connecting'];
    }
  }

  private enter(stage: SshStage): void {
    if (!this.passed.includes(stage)) this.passed.push(stage);
  }

  /** The current attempt failed with `message` at the stage it had reached. */
  failed(message: string): void {
    this.failure = { stage: this.current.stage, message };
    if (!this.failureLogged) this.append(`failed while ${this.current.stage}: ${message}`);
    this.failureLogged = true;
  }

  private append(line: string): void {
    const stamp = new Date().toISOString().slice(11, 23);
    const text =
      line.length > SSH_CONNECT_LOG_LINE_CHARS ? `${line.slice(0, SSH_CONNECT_LOG_LINE_CHARS)}…` : line;
    this.log.push(`${stamp} ${text}`);
    if (this.log.length > SSH_CONNECT_LOG_LINES) this.log.splice(0, this.log.length - SSH_CONNECT_LOG_LINES);
  }
}
