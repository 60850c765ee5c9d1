// Process scenarios (start, read, write, signal, terminate) against codex and Tether, over ws and stdio.
import { defineConformanceSuite } from './run-conformance';
import { processScenarios } from './scenarios-process';

defineConformanceSuite({ name: 'process', scenarios: processScenarios });
