// The start-up check of node-pty's internals: it passes with the pinned node-pty, and when an
// internal is missing it fails with an error naming it and the version the code was written for.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

const require = createRequire(import.meta.url);
const pinned = (require('../../../../package.json') as { dependencies: Record<string, string> }).dependencies[
  'node-pty'
];

/** A fresh copy of the module, so its once-only check runs again. */
async function freshInternals() {
  vi.resetModules();
  return import('../../../../electron/server/reader/node-pty-internals');
}

describe('node-pty internals', () => {
  const restore: Array<() => void> = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  it('were written for the node-pty that package.json pins, and are all there', async () => {
    const internals = await freshInternals();
    expect(internals.NODE_PTY_VERSION).toBe(pinned);
    expect(() => internals.checkNodePtyInternals()).not.toThrow();
  });

  it('fail the check by name when node-pty lacks one, with the version expected', async () => {
    const { UnixTerminal } = require('node-pty/lib/unixTerminal') as { UnixTerminal: { prototype: object } };
    const descriptor = Object.getOwnPropertyDescriptor(UnixTerminal.prototype, 'ptsName')!;
    delete (UnixTerminal.prototype as Record<string, unknown>).ptsName;
    restore.push(() => Object.defineProperty(UnixTerminal.prototype, 'ptsName', descriptor));
    const internals = await freshInternals();
    expect(() => internals.checkNodePtyInternals()).toThrow(internals.NodePtyInternalsError);
    expect(() => internals.checkNodePtyInternals()).toThrow(/UnixTerminal accessor `ptsName`/);
    expect(() => internals.checkNodePtyInternals()).toThrow(`written for node-pty ${pinned}`);
  });
});
