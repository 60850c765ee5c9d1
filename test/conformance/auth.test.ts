// Authentication and HTTP-surface scenarios against codex and Tether started with
// `--ws-auth capability-token --ws-token-file F` (WebSocket only).
import { defineConformanceSuite } from './run-conformance';
import { authScenarios } from './scenarios-auth';

defineConformanceSuite({ name: 'auth', scenarios: authScenarios, auth: true });
