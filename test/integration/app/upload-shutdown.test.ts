// Quitting the app mid-upload leaves no staged file on the server: an upload of a new file to
// Tether's ws server, over a throttled link, is cut short by AppService.shutdown(); shutdown keeps the
// link up until the cancelled upload has removed its hidden staging file, then closes it.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

const CHUNK = 1_048_576;
/** Slow enough that the upload is still running when the app quits, fast enough to get going. */
const THROTTLE_BYTES_PER_S = 2 * 1_048_576;

describe('quitting during an upload (Tether ws server behind a throttled link)', () => {
  const rig = remoteAppRig();

  it('removes the staged file before the link closes', async () => {
    const remotePath = path.join(rig.server.home, 'quit-mid-way.bin');
    const upload = (): string[] =>
      readdirSync(rig.server.home).filter(
        (name) => name.startsWith('.quit-mid-way.bin.') || name === 'quit-mid-way.bin',
      );
    rig.proxy.throttle(THROTTLE_BYTES_PER_S, 'upstream');
    const started = await rig.h.invoke('transfers.startUpload', {
      envId: rig.envId,
      remotePath,
      totalBytes: 8 * CHUNK,
    });
    // Three of eight chunks: the upload gets going, then waits for more (or has a block in flight).
    for (let offset = 0; offset < 3 * CHUNK; offset += CHUNK) {
      await rig.h.invoke('transfers.uploadChunk', {
        id: started.id,
        offset,
        dataBase64: randomBytes(CHUNK).toString('base64'),
        last: false,
      });
    }
    await waitFor(() => (rig.transfer(started.id)?.doneBytes ?? 0) >= CHUNK, 'the first block written');
    expect(upload()).toEqual([expect.stringContaining('.tether-upload-')]);

    await rig.h.service.shutdown();
    expect(rig.transfer(started.id)?.state).toBe('cancelled');
    expect(upload()).toEqual([]);
  });
});
