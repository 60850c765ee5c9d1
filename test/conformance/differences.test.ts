// Scenarios where Tether intentionally differs from codex, each server checked against its own
// expected behaviour; and a check that docs/compatibility.md explains every declared difference.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/exec-servers';
import { INTENDED_DIFFERENCES } from './differences';
import { defineConformanceSuite } from './run-conformance';
import { differenceScenarios } from './scenarios-differences';

defineConformanceSuite({ name: 'differences', scenarios: differenceScenarios });

describe('docs/compatibility.md', () => {
  it('lists every intended difference by id', () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'compatibility.md'), 'utf8');
    for (const id of Object.keys(INTENDED_DIFFERENCES)) expect(doc, id).toContain(`\`${id}\``);
  });
});
