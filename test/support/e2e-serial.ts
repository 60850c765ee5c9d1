import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * One browser file at a time, while the rest of the suite runs beside it: each e2e file drives a
 * Chromium and an app host, and two of them at once on two cores make both slow enough to flake.
 * Vitest's own `fileParallelism: false` would run them all after everything else instead.
 * The lock is a directory (mkdir is atomic) per vitest run: the workers are children of one vitest
 * process. A holder that died leaves its pid behind, and the lock is taken over.
 */
const LOCK = path.join(os.tmpdir(), `tether-e2e-lock-${process.ppid}`);
const OWNER = path.join(LOCK, 'pid');
const WAIT_LIMIT_MS = 10 * 60_000;

function holderAlive(): boolean {
  try {
    process.kill(Number(fs.readFileSync(OWNER, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

async function acquire(): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(OWNER, String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A holder between mkdir and writing its pid has no pid file yet: only a pid that is gone counts.
    if (fs.existsSync(OWNER) && !holderAlive()) fs.rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`no turn for this browser file within ${WAIT_LIMIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(acquire, WAIT_LIMIT_MS + 5_000);
afterAll(() => {
  if (fs.existsSync(OWNER) && fs.readFileSync(OWNER, 'utf8') === String(process.pid)) {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
});
