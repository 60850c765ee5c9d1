// Logging in to an SSH host: the master connection (ssh-master.ts) and its askpass channel, whose
// questions (host key, password, passphrase) go to the hooks once each; a no ends the attempt with
// a clear error. The master then serves as the host's HostShell.
import { AskpassServer } from './askpass';
import type { AskpassRequest } from './prompt-kind';
import { PrivateDir, sharedMasterRoot } from './private-dir';
import { SshError } from './ssh-error';
import type { SshHooks } from './ssh-hooks';
import { SshMaster, type SshTarget } from './ssh-master';

export class SshLogin {
  private dir: PrivateDir | null = null;
  private askpass: AskpassServer | null = null;
  private master: SshMaster | null = null;
  /** Why the current master attempt must fail, once the user (or the lack of one) said no. */
  private refusal: SshError | null = null;
  /** The master may be stuck on a dead network: the last bridge over it delivered nothing. */
  private masterSuspect = false;
  private disposed = false;

  /**
   * `prompts`: the caller's own hooks, or none (then any question fails the connect). `shared`:
   * use (or start) the host's shared master, which outlives this login (ssh-master.ts).
   */
  constructor(
    private readonly target: SshTarget,
    private readonly hooks: SshHooks,
    private readonly prompts: SshHooks | undefined,
    private readonly shared = false,
  ) {}

  private get destination(): string {
    return this.target.destination;
  }

  /** The bridge over the master delivered nothing before it ended: rebuild the master next time. */
  suspectMaster(): void {
    this.masterSuspect = true;
  }

  /** A bridge delivered: the master works. */
  trustMaster(): void {
    this.masterSuspect = false;
  }

  dispose(): void {
    this.disposed = true;
    this.master?.stop();
    this.askpass?.close();
    this.dir?.remove();
    this.master = null;
    this.askpass = null;
    this.dir = null;
  }

  /** A live master, authenticating again (with its prompts) if there is none or it died. */
  async ensureMaster(): Promise<SshMaster> {
    if (this.disposed) throw new SshError('closed', 'connecting', 'The SSH connection was closed.');
    if (this.master && !this.masterSuspect && (await this.master.check())) return this.master;
    if (!this.dir || !this.askpass) {
      this.dir = new PrivateDir();
      this.askpass = await AskpassServer.start(this.dir, (request) => this.answer(request));
    }
    this.master ??= new SshMaster(
      this.target,
      this.dir.file('cm'),
      this.askpass.env(),
      (line) => this.hooks.onLog(line),
      this.shared ? sharedMasterRoot() : null,
    );
    this.refusal = null;
    const retire = this.masterSuspect;
    this.masterSuspect = false;
    try {
      await this.master.start((event) => this.hooks.onStage(event), retire);
    } catch (error) {
      throw this.refusal ?? error;
    }
    if (this.disposed) throw new SshError('closed', 'connecting', 'The SSH connection was closed.');
    return this.master;
  }

  /** One askpass question: asked through the hooks, once; a no ends this master attempt. */
  private async answer(request: AskpassRequest): Promise<string | null> {
    if (request.kind === 'notice') {
      this.hooks.onLog(`ssh: ${request.text}`);
      this.hooks.onStage({ stage: 'authenticating', detail: request.text });
      return '';
    }
    // After a refusal ssh may try its next method and ask again: it gets no second question.
    if (this.refusal) return null;
    this.hooks.onStage({
      stage: request.kind === 'hostKey' ? 'connecting' : 'authenticating',
      detail: request.text,
    });
    const answer = this.prompts
      ? await this.prompts.prompt({
          kind: request.kind,
          text: request.text,
          destination: this.destination,
          secret: request.secret,
        })
      : null;
    if (answer !== null) return answer;
    this.refusal = this.prompts
      ? new SshError('cancelled', 'authenticating', `Connecting to ${this.destination} was cancelled.`)
      : new SshError(
          'auth',
          'authenticating',
          `ssh asked "${request.text.trim()}" while connecting to ${this.destination}, and nothing here can ` +
            'answer prompts; use a key (or agent) that needs no passphrase, or connect from the app or a terminal.',
        );
    this.master?.stop();
    return null;
  }
}
