import { BaseSequencer } from 'vitest/node';

/**
 * The order files start in, for the wall time of a whole run on a 2-core machine.
 *
 * - The suites that mostly sit out a long outage start first, so their minutes overlap everything
 *   else instead of trailing at the end of the run.
 * - Browser files run one at a time (see e2e-serial.ts) but share the pool with the rest, so they are
 *   spread evenly through the run: bunched together, they would hold workers waiting for each other.
 */
const LONG_WAITS = [
  'test/chaos/long-outage.test.ts',
  'test/chaos/ssh-long-outage.test.ts',
  'test/chaos/suspended-client.test.ts',
  // Not a wait but one long run (every bench case, quick): started late, it would be the tail.
  'test/bench/harness.test.ts',
];

export default class TetherSequencer extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const sorted = await super.sort(files);
    /** @param {import('vitest/node').TestSpecification} file */
    const isLong = (file) => LONG_WAITS.some((p) => file.moduleId.endsWith(p));
    const long = sorted.filter(isLong);
    const browser = sorted.filter((f) => f.project.name === 'e2e');
    const rest = sorted.filter((f) => !isLong(f) && f.project.name !== 'e2e');
    const out = [...long];
    const every = browser.length > 0 ? rest.length / browser.length : 0;
    let next = 0;
    rest.forEach((file, i) => {
      while (next < browser.length && i >= Math.floor(next * every)) out.push(browser[next++]);
      out.push(file);
    });
    out.push(...browser.slice(next));
    return out;
  }
}
