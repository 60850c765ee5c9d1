// What a benchmark case is: an id (for `--case`), a title, and a run that records into a
// CaseRecorder. The context carries the sizes (full or quick) and a scratch folder.
import type { BenchConfig } from './config';
import type { CaseRecorder } from './results';

export interface BenchContext {
  config: BenchConfig;
  /** Scratch folder of this bench run (payload files, temp keys), removed at the end. */
  workDir: string;
  /** Progress line on stderr (the result table goes to stdout). */
  log(line: string): void;
}

export interface BenchCase {
  id: string;
  title: string;
  run(context: BenchContext, recorder: CaseRecorder): Promise<void>;
}
