// The calls of one connection that wait for an answer: request ids, the table of pending calls with
// their timeouts, the cap on them (calls past it queue for a slot), and settling a call with the
// server's response, validated against the protocol. ExecServerConnection (connection.ts) puts
// them on the wire.
import {
  describeSchemaError,
  MethodTable,
  type RequestMethod,
  type ResultOf,
} from '../../../shared/protocol';
import { ClientError, rpcError } from '../client-error';
import { MAX_PENDING_CALLS, MAX_QUEUED_CALLS } from '../constants';

interface PendingCall {
  method: RequestMethod;
  resolve(result: unknown): void;
  reject(error: ClientError): void;
  timer: NodeJS.Timeout;
}

const RECENTLY_TIMED_OUT_LIMIT = 256;

export class PendingCalls {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  /** Calls waiting for a free slot under MAX_PENDING_CALLS, in the order they were made. */
  private readonly queued: Array<{ send: () => void; reject: (error: ClientError) => void }> = [];
  private readonly recentlyTimedOut = new Set<number>();

  /** `closed`: whether the connection has ended (queued calls then stay off the wire). */
  constructor(private readonly closed: () => boolean) {}

  /** Makes a call; `transmit` puts it on the wire under its id, now or once a slot is free. */
  start<M extends RequestMethod>(
    method: M,
    timeoutMs: number,
    transmit: (id: number) => void,
  ): Promise<ResultOf<M>> {
    if (this.queued.length >= MAX_QUEUED_CALLS) {
      return Promise.reject(
        new ClientError(
          'tooManyPendingCalls',
          `${MAX_PENDING_CALLS + MAX_QUEUED_CALLS} calls are already waiting for the server; ${method} was not sent. Try again shortly.`,
        ),
      );
    }
    return new Promise<ResultOf<M>>((resolve, reject) => {
      // The timeout runs from the moment the call is on the wire, not while it waits for a slot.
      const send = (): void => {
        const id = this.nextId++;
        const timer = setTimeout(() => {
          this.pending.delete(id);
          this.recentlyTimedOut.add(id);
          if (this.recentlyTimedOut.size > RECENTLY_TIMED_OUT_LIMIT) {
            this.recentlyTimedOut.delete(this.recentlyTimedOut.values().next().value as number);
          }
          reject(
            new ClientError('timeout', `${method} got no answer from the server within ${timeoutMs} ms.`),
          );
          this.sendQueued();
        }, timeoutMs);
        this.pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
        transmit(id);
      };
      if (this.pending.size < MAX_PENDING_CALLS) send();
      else this.queued.push({ send, reject });
    });
  }

  /** Puts queued calls on the wire while slots are free. */
  private sendQueued(): void {
    while (!this.closed() && this.pending.size < MAX_PENDING_CALLS && this.queued.length > 0) {
      this.queued.shift()!.send();
    }
  }

  /**
   * Settles the call that response `m` answers: it fails with the server's error or a result that
   * does not match the protocol, else `accepted` sees the valid result before the call resolves with
   * it. False if no call waits for `id`.
   */
  answer(
    id: unknown,
    m: Record<string, unknown>,
    accepted: (method: RequestMethod, result: unknown) => void,
  ): boolean {
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!call) return false;
    this.pending.delete(id as number);
    clearTimeout(call.timer);
    this.sendQueued();
    if ('error' in m) {
      const error = m.error as { code?: unknown; message?: unknown; data?: unknown };
      if (error === null || typeof error !== 'object' || typeof error.code !== 'number') {
        call.reject(new ClientError('protocol', `The server sent a malformed error for ${call.method}.`));
        return true;
      }
      call.reject(
        rpcError(call.method, { code: error.code, message: String(error.message), data: error.data }),
      );
      return true;
    }
    const parsed = MethodTable[call.method].result.safeParse(m.result);
    if (!parsed.success) {
      call.reject(
        new ClientError(
          'protocol',
          `The server's ${call.method} result does not match the protocol: ${describeSchemaError(parsed.error, m.result)}.`,
        ),
      );
      return true;
    }
    accepted(call.method, parsed.data);
    call.resolve(parsed.data);
    return true;
  }

  /** Whether `id` is a call that timed out lately, so its late answer is no news; forgets it. */
  timedOutLately(id: unknown): boolean {
    return typeof id === 'number' && this.recentlyTimedOut.delete(id);
  }

  /** The connection ended: every pending and queued call fails with `error`. */
  rejectAll(error: ClientError): void {
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
      call.reject(error);
    }
    this.pending.clear();
    for (const call of this.queued.splice(0)) call.reject(error);
  }
}
