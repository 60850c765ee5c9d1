// The client facing a stdio server that breaks the byte-stream framing (the road SSH links take
// too): garbage where a frame must begin, a frame length past the bound, a frame before binary
// frames were agreed. Each fails that environment with a protocol error that says what broke, and
// nothing is thrown uncaught. A malformed data frame inside intact framing (a header nested 20 000
// deep) is refused by the same limits the server applies, and the link keeps serving.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { STREAM_FRAME_DATA, STREAM_FRAME_TEXT, streamFramePrefix } from '../../../shared/protocol';
import { dataFrame, hostileStdioCommand, nested } from '../../support/hostile-server';
import { waitFor } from '../../support/wait';

const uncaught: unknown[] = [];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};
beforeAll(() => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterAll(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

const clients: RemoteExecServerClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  expect(uncaught).toEqual([]);
});

function frame(kind: number, body: Uint8Array | string): Buffer {
  const bytes = Buffer.from(body);
  return Buffer.concat([streamFramePrefix(kind, bytes.length), bytes]);
}

function clientFor(options: Parameters<typeof hostileStdioCommand>[1]): {
  client: RemoteExecServerClient;
  log: string[];
} {
  const log: string[] = [];
  const client = new RemoteExecServerClient({
    transport: { kind: 'stdio', command: hostileStdioCommand([], options) },
    log: (line) => log.push(line),
  });
  clients.push(client);
  return { client, log };
}

async function failedWith(client: RemoteExecServerClient): Promise<{ code: string; reason: string }> {
  await client.connect().catch(() => undefined);
  return waitFor(
    () => (client.state.kind === 'failed' ? client.state : null),
    'the hostile environment to fail',
  );
}

describe('a stdio server that breaks the stream framing', () => {
  it('garbage after the handshake fails the environment with the reason', async () => {
    const { client } = clientFor({ binaryFrames: true, raw: Buffer.from('{"method":"process/output"}\n') });
    const state = await failedWith(client);
    expect(state.code).toBe('protocol');
    expect(state.reason).toMatch(
      /broke the framing of its stream: byte 0x7b where a frame must begin \(the stream is framed/,
    );
  });

  it('a frame length past the bound is refused before its body is read', async () => {
    const { client } = clientFor({
      binaryFrames: true,
      raw: streamFramePrefix(STREAM_FRAME_DATA, 0xffffffff),
    });
    const state = await failedWith(client);
    expect(state.code).toBe('protocol');
    expect(state.reason).toMatch(/a frame of 4294967295 bytes, above the limit of/);
  });

  it('a frame from a server that did not agree to binary frames', async () => {
    const { client } = clientFor({ binaryFrames: false, raw: frame(STREAM_FRAME_TEXT, '{"method":"x"}') });
    const state = await failedWith(client);
    expect(state.code).toBe('protocol');
    expect(state.reason).toMatch(/a framed message \(kind 0xf5\) before tetherBinaryFrames was agreed/);
  });

  it('a data frame nested 20 000 deep inside intact framing is a protocol error, and the link serves on', async () => {
    const { client, log } = clientFor({
      binaryFrames: true,
      raw: Buffer.concat([
        frame(STREAM_FRAME_DATA, dataFrame(nested(20_000))),
        // (Both in argv, which bounds one argument to 128 KiB.)
        frame(
          STREAM_FRAME_DATA,
          dataFrame(`{"x":${nested(2_000, '{"payloadRef":[0,2]}')}}`, Buffer.from('hi')),
        ),
      ]),
    });
    await client.connect();
    await waitFor(
      () => (log.filter((line) => /recursion limit exceeded/.test(line)).length === 2 ? true : null),
      'both frames refused',
    );
    expect(client.state.kind).toBe('connected');
  });
});
