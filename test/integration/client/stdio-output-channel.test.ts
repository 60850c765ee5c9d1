// The stdio transport hands its server one end of a socket pair it made by listening in a private
// directory (output-channel.ts), and reads its end into lent memory: the server's stdout has that
// address, already removed (its directory too) when it starts, and every message arrives intact and in order across
// many reads into the one reused buffer (kept as delivered, read only at the end).
import { describe, expect, it } from 'vitest';
import { openStdioTransport } from '../../../electron/client/transports/stdio-transport';
import type { ClientError } from '../../../electron/client/client-error';

/** Runs `script` under sh as a stdio server; resolves with the lines it printed, once it exits. */
async function linesOf(script: string): Promise<string[]> {
  const lines: Array<Buffer | string> = [];
  let ended: (error: ClientError) => void = () => undefined;
  const closed = new Promise<ClientError>((resolve) => (ended = resolve));
  await openStdioTransport(
    { command: ['sh', '-c', script] },
    {
      onMessage: (message) => lines.push(message),
      onBroken: (reason) => lines.push(`broken: ${reason}`),
      onActivity: () => undefined,
      onClose: (error) => ended(error),
    },
    10_000,
  );
  await closed;
  return lines.map((line) => line.toString());
}

describe('stdio output channel', () => {
  it("is the socket pair's end, its path removed, and carries every line in order", async () => {
    // The address of the server's stdout, from /proc/net/unix by its inode (a pipe, or the
    // socketpair Node makes for 'pipe', has none).
    const lines = await linesOf(
      'ino=$(readlink /proc/$$/fd/1 | tr -dc 0-9); ' +
        'p=$(awk -v i="$ino" \'$7 == i { print $8 }\' /proc/net/unix | head -n 1); ' +
        'if [ -z "$p" ]; then echo "no address"; elif [ -e "$p" ]; then echo "$p exists"; ' +
        'elif [ -e "${p%/*}" ]; then echo "its directory exists"; else echo "removed $p"; fi; ' +
        'i=0; while [ $i -lt 20000 ]; do echo "line $i ..........................................."; i=$((i+1)); done',
    );
    expect(lines[0]).toMatch(/^removed \/.*\/tether-out-[^/]+\/out\.sock$/);
    const rest = lines.slice(1);
    expect(rest).toHaveLength(20_000);
    // More than 1 MB in all: many reads into the one 64 KiB buffer, each line copied out whole.
    rest.forEach((line, i) => expect(line).toBe(`line ${i} ...........................................`));
  }, 30_000);
});
