// The shape of what every benchmark case reports (measurements, ratios, goals), and the recorder a
// case fills in while it runs. docs/benchmarks.json is an array of CaseResult, written as is.
import { summarize, type Summary } from './stats';

export type MeasurementStatus = 'ok' | 'skipped' | 'wedged' | 'failed';

export interface Measurement {
  /** Row label, unique within its case, e.g. "tether · ws · pipe · zeros". */
  name: string;
  /** Unit of the summary: 'MB/s', 'ms', 'MiB', 'lines'... */
  unit: string;
  /** null unless status is 'ok'. */
  summary: Summary | null;
  status: MeasurementStatus;
  /** Why it is not 'ok', or a remark on how it was measured. */
  note?: string;
  /** Side figures (median over the same runs), e.g. { 'server CPU ms': 812 }. */
  extra?: Record<string, number>;
}

interface Ratio {
  name: string;
  numerator: string;
  denominator: string;
  /** median(numerator) / median(denominator); null when either side is missing. */
  value: number | null;
}

export interface Goal {
  text: string;
  /** The measured figure the goal is judged on, as printed. */
  measured: string;
  /** null when it could not be judged (a side was skipped or failed). */
  met: boolean | null;
  /** What is known to hold it back, printed beside it when it is not met. */
  whyNot?: string;
}

export interface CaseResult {
  id: string;
  title: string;
  /** Sizes and run counts used, in words. */
  setup: string;
  /** Command lines of the processes and servers the case started. */
  commands: string[];
  measurements: Measurement[];
  ratios: Ratio[];
  goals: Goal[];
  notes: string[];
  durationMs: number;
  /** Set when the case as a whole threw; measurements recorded before that are kept. */
  error?: string;
}

/** Collects one case's results; cases call ok/skip/... as they measure. */
export class CaseRecorder {
  readonly result: CaseResult;

  constructor(id: string, title: string) {
    this.result = {
      id,
      title,
      setup: '',
      commands: [],
      measurements: [],
      ratios: [],
      goals: [],
      notes: [],
      durationMs: 0,
    };
  }

  setup(text: string): void {
    this.result.setup = text;
  }

  command(line: string): void {
    if (!this.result.commands.includes(line)) this.result.commands.push(line);
  }

  note(text: string): void {
    this.result.notes.push(text);
  }

  /** Records a measurement from per-run values; `extras` are per-run side figures (median kept). */
  ok(
    name: string,
    unit: string,
    values: number[],
    extras?: Record<string, number[]>,
    note?: string,
  ): Measurement {
    const extra: Record<string, number> = {};
    for (const [key, list] of Object.entries(extras ?? {})) {
      if (list.length > 0) extra[key] = summarize(list).median;
    }
    return this.push({
      name,
      unit,
      summary: summarize(values),
      status: 'ok',
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
      ...(note ? { note } : {}),
    });
  }

  /** Records a measurement that could not be taken, with the reason printed in the report. */
  missing(name: string, unit: string, status: Exclude<MeasurementStatus, 'ok'>, note: string): Measurement {
    return this.push({ name, unit, summary: null, status, note });
  }

  get(name: string): Measurement | undefined {
    return this.result.measurements.find((m) => m.name === name);
  }

  median(name: string): number | null {
    return this.get(name)?.summary?.median ?? null;
  }

  /** Records median(numerator) / median(denominator) and returns it (null if a side is missing). */
  ratio(name: string, numerator: string, denominator: string): number | null {
    const top = this.median(numerator);
    const bottom = this.median(denominator);
    const value = top !== null && bottom !== null && bottom !== 0 ? top / bottom : null;
    this.result.ratios.push({ name, numerator, denominator, value });
    return value;
  }

  /** Records a goal; `value` null means it could not be judged. */
  goal(
    text: string,
    value: number | null,
    met: (value: number) => boolean,
    format: (value: number) => string,
    whyNot?: string,
  ): void {
    const judged = value === null ? null : met(value);
    this.result.goals.push({
      text,
      measured: value === null ? 'not measured' : format(value),
      met: judged,
      ...(judged === false && whyNot ? { whyNot } : {}),
    });
  }

  private push(measurement: Measurement): Measurement {
    if (this.get(measurement.name)) throw new Error(`measurement "${measurement.name}" recorded twice`);
    this.result.measurements.push(measurement);
    return measurement;
  }
}
