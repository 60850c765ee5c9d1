// What a terminal sends to its process's stdin (processes.write): keystrokes at once, large pastes
// in awaited pieces, and Ctrl-C ahead of a paste still going out.
import type { ProcessKey } from '../../../shared/ipc';
import { invoke } from '../../ipc/ipc-client';
import { PASTE_CHUNK_CHARS } from './flow-limits';

const INTERRUPT = '\x03';
const UTF8 = new TextEncoder();

/** How writes went: `written` after one sent at once succeeded, `failed` with a write's error. */
export interface InputReport {
  written(): void;
  failed(error: unknown): void;
}

export class TerminalInput {
  private pasteChain: Promise<void> = Promise.resolve();
  /** Pastes queued or in progress; keystrokes wait behind them to keep their order. */
  private pastesPending = 0;
  private pasteGeneration = 0;

  constructor(
    private readonly key: ProcessKey,
    private readonly report: InputReport,
  ) {}

  /**
   * Keystrokes go out at once, never behind output. A large paste goes in awaited pieces, and
   * keystrokes typed meanwhile queue after it — except Ctrl-C, which abandons the paste and goes now.
   */
  send(data: string): void {
    if (data === INTERRUPT) {
      this.pasteGeneration += 1;
      this.write(data);
      return;
    }
    if (data.length <= PASTE_CHUNK_CHARS && this.pastesPending === 0) {
      this.write(data);
      return;
    }
    const generation = this.pasteGeneration;
    this.pastesPending += 1;
    this.pasteChain = this.pasteChain.then(async () => {
      // Ctrl-C abandons the rest of a multi-piece paste; single pieces (keystrokes) still go out.
      const abandonable = data.length > PASTE_CHUNK_CHARS;
      for (let i = 0; i < data.length; i += PASTE_CHUNK_CHARS) {
        if (abandonable && generation !== this.pasteGeneration) break;
        await this.writeAwaited(data.slice(i, i + PASTE_CHUNK_CHARS));
      }
      this.pastesPending -= 1;
    });
  }

  /** Sends xterm's binary data (one char per byte, 0-255), at once. */
  sendBinary(data: string): void {
    const bytes = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i += 1) bytes[i] = data.charCodeAt(i) & 0xff;
    this.writeBytes(bytes);
  }

  /** Typed text goes as its UTF-8 bytes: raw across IPC, as it will be on the wire. */
  private write(data: string): void {
    this.writeBytes(UTF8.encode(data));
  }

  private writeBytes(data: Uint8Array): void {
    invoke('processes.write', { ...this.key, data }).then(
      () => this.report.written(),
      (error: unknown) => this.report.failed(error),
    );
  }

  private async writeAwaited(data: string): Promise<void> {
    try {
      await invoke('processes.write', { ...this.key, data: UTF8.encode(data) });
    } catch (error) {
      this.report.failed(error);
    }
  }
}
