// The one owner of ssh's outstanding questions (host key, password, passphrase, the server's own):
// it queues them per asker so each environment shows one at a time, announces the head of each
// queue to the renderers, and settles every question exactly once — answered, or cancelled (null).
import { randomUUID } from 'node:crypto';
import type { SshPromptView } from '../../../shared/ipc';
import type { SshPrompt } from '../../client/transports/ssh/ssh-hooks';
import { notFound } from '../app-error';

/** Who asks: an environment, or a *Test connection* (envId null) with its own key. */
export interface PromptAsker {
  /** Queue key: the environment id, or `test:<testId>`. */
  key: string;
  envId: string | null;
  envName: string;
}

export interface PromptAnnouncer {
  opened(view: SshPromptView): void;
  closed(id: string): void;
}

interface Waiting {
  view: SshPromptView;
  settle: (answer: string | null) => void;
}

export class SshPromptBroker {
  /** Per asker, in arrival order; the head is the one shown. */
  private readonly queues = new Map<string, Waiting[]>();

  constructor(private readonly announce: PromptAnnouncer) {}

  /** Resolves with the user's answer, or null when cancelled (by the user or by the app). */
  ask(asker: PromptAsker, prompt: SshPrompt): Promise<string | null> {
    return new Promise((resolve) => {
      const view: SshPromptView = {
        id: randomUUID(),
        envId: asker.envId,
        envName: asker.envName,
        kind: prompt.kind,
        text: prompt.text,
        destination: prompt.destination,
        secret: prompt.secret,
      };
      const queue = this.queues.get(asker.key) ?? [];
      queue.push({ view, settle: resolve });
      this.queues.set(asker.key, queue);
      if (queue.length === 1) this.announce.opened(view);
    });
  }

  /** The prompts shown now: the head of each asker's queue. */
  open(): SshPromptView[] {
    return [...this.queues.values()].map((queue) => queue[0]!.view);
  }

  /** Settles a shown prompt; null cancels it. Only the head of a queue can be answered. */
  answer(id: string, answer: string | null): void {
    for (const [key, queue] of this.queues) {
      if (queue[0]?.view.id !== id) continue;
      this.settleHead(key, queue, answer);
      return;
    }
    throw notFound('This prompt');
  }

  /** Cancels everything an asker is waiting on (it disconnected, was removed, or its test ended). */
  cancelAsker(key: string): void {
    const queue = this.queues.get(key) ?? [];
    this.queues.delete(key);
    // Only the head was ever shown; the ones behind it are settled without being announced.
    if (queue[0]) this.announce.closed(queue[0].view.id);
    for (const waiting of queue) waiting.settle(null);
  }

  /** Cancels every outstanding prompt (the last window or tab closed: nobody is there to answer). */
  cancelAll(): void {
    for (const key of [...this.queues.keys()]) this.cancelAsker(key);
  }

  private settleHead(key: string, queue: Waiting[], answer: string | null): void {
    const head = queue.shift()!;
    if (queue.length === 0) this.queues.delete(key);
    this.announce.closed(head.view.id);
    head.settle(answer);
    const next = queue[0];
    if (next) this.announce.opened(next.view);
  }
}
