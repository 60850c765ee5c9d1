// A claimant for pid-lock.test.ts: claims the lock ROUNDS times; while holding it, it creates HOLDER
// exclusively (so a second holder at the same time fails loudly) and removes it before releasing.
// Prints how many times it held the lock; exits 1 when it found another holder.
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { claimPidFile, releasePidFile } from '../../../../electron/server/daemon/pid-lock';

const [lock, holder, rounds] = process.argv.slice(2) as [string, string, string];
let held = 0;
for (let round = 0; round < Number(rounds); round++) {
  if (!claimPidFile(lock).claimed) continue;
  held++;
  try {
    closeSync(openSync(holder, 'wx'));
  } catch {
    process.stderr.write(`pid ${process.pid}: another claimant held the lock too\n`);
    process.exit(1);
  }
  unlinkSync(holder);
  releasePidFile(lock);
}
process.stdout.write(`${held}\n`);
