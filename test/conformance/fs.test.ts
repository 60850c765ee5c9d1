// Filesystem scenarios against codex and Tether, over ws and stdio.
import { defineConformanceSuite } from './run-conformance';
import { fsScenarios } from './scenarios-fs';

defineConformanceSuite({ name: 'fs', scenarios: fsScenarios });
