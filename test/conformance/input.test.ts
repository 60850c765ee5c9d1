// Malformed input and protocol-violation scenarios against codex and Tether, over ws and stdio.
import { defineConformanceSuite } from './run-conformance';
import { inputScenarios } from './scenarios-input';

defineConformanceSuite({ name: 'input', scenarios: inputScenarios });
