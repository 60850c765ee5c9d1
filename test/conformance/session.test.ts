// Handshake, gate and resume scenarios against codex and Tether, over ws and stdio.
import { defineConformanceSuite } from './run-conformance';
import { sessionScenarios } from './scenarios-session';

defineConformanceSuite({ name: 'session', scenarios: sessionScenarios });
