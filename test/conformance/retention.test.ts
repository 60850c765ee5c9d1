// Output retention scenarios (byte and chunk caps) against codex and Tether.
import { defineConformanceSuite } from './run-conformance';
import { retentionScenarios } from './scenarios-retention';

defineConformanceSuite({ name: 'retention', scenarios: retentionScenarios });
