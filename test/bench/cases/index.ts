// Every benchmark case, in the order `npm run bench` runs them, and the budgets the report states.
import type { BenchCase } from '../lib/bench-case';
import { containerCase } from './container';
import { echoCase } from './echo';
import { fleetCase } from './fleet';
import { forwardCase } from './forward';
import { FOOTPRINT_BUDGETS, footprintCase } from './footprint';
import { pixelsCase } from './pixels';
import { reconnectCase } from './reconnect';
import { runOutputCase } from './run-output';
import { sshCase } from './ssh';
import { startsCase } from './starts';
import { framesCase } from './frames';
import { throughputCase } from './throughput';
import { transferCase } from './transfer';
import { typingCase } from './typing';

export const ALL_CASES: BenchCase[] = [
  throughputCase,
  framesCase,
  runOutputCase,
  echoCase,
  reconnectCase,
  startsCase,
  pixelsCase,
  typingCase,
  footprintCase,
  transferCase,
  sshCase,
  containerCase,
  forwardCase,
  fleetCase,
];

export const BUDGETS: string[] = [...FOOTPRINT_BUDGETS];
