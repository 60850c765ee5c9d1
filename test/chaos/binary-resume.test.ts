// A cut in the middle of output that travels in binary data frames: Tether's client resumes the
// session on a new link, negotiates binary frames again, fills the gap with a process/read whose
// replay is itself a data frame, and the subscriber sees every byte exactly once, in order.
import { afterEach, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../electron/client/link/remote-client';
import { startServer } from '../support/exec-servers';
import { WsTap, type TappedMessage } from '../support/ws-tap';
import { waitFor } from '../support/wait';
import { firstDifference, lineStream } from './line-stream';
import { within } from './process-follower';
import { startFollowed } from './rig';

const STREAM_DONE_MS = 60_000;

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const isOutputFrame = (m: TappedMessage): boolean =>
  m.direction === 'down' && m.dataFrameHeader?.includes('"process/output"') === true;
const isReplayFrame = (m: TappedMessage): boolean =>
  m.direction === 'down' && /"chunks":\[\{.*"payloadRef"/.test(m.dataFrameHeader ?? '');

it('resumes byte-exact once after a cut in the middle of binary output, replay included', async () => {
  const server = await startServer('tether', 'ws');
  opened.push(() => server.stop());
  const tap = await WsTap.start(server.url!);
  opened.push(() => tap.close());
  const client = new RemoteExecServerClient({ transport: server.transportSpec(tap.url) });
  opened.push(() => client.close());
  await client.connect();

  const stream = lineStream({ bursts: 60, linesPerBurst: 2_000, pauseMs: 40, exitCode: 0 });
  const { followed } = await startFollowed(client, server, { argv: stream.argv });
  await waitFor(() => tap.messages.filter(isOutputFrame).length >= 5, 'binary output before the cut');
  // Held long enough for several bursts to land in the gap, so the resume has something to replay.
  expect(tap.cutAll({ holdNewLinksMs: 500 })).toBe(1);

  expect(await within(followed.finished, STREAM_DONE_MS, 'the process closing')).toBe('closed');
  expect(followed.problems).toEqual([]);
  expect(firstDifference(followed.output(), stream.expected())).toBe('identical');
  expect(client.health().reconnectCount).toBeGreaterThanOrEqual(1);
  // After the cut: a new link, where the replay of what was missed and the live output that
  // follows both came in data frames.
  const afterCut = tap.messages.filter((m) => m.link >= 1);
  expect(afterCut.some(isReplayFrame)).toBe(true);
  expect(afterCut.some(isOutputFrame)).toBe(true);
});
