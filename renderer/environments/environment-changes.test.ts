import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEnv } from '../test/fake-bridge';
import { resetStores } from '../test/reset-stores';
import { useEnvironments } from './environments-store';
import {
  discardEnvironmentChanges,
  onEnvironmentChangeApplied,
  queueEnvironmentChange,
} from './environment-changes';

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

beforeEach(() => resetStores());
afterEach(() => {
  discardEnvironmentChanges();
  onEnvironmentChangeApplied(null);
});

describe('environment changes from the host', () => {
  it('a burst of changes to a whole fleet is one store update in the next frame, in order', async () => {
    const seen: string[] = [];
    onEnvironmentChangeApplied((before, after) =>
      seen.push(`${after.id}:${before?.link.kind}>${after.link.kind}`),
    );
    useEnvironments
      .getState()
      .setAll(
        Array.from({ length: 100 }, (_, i) =>
          makeEnv({ id: `e${i}`, link: { kind: 'connected', since: 0 } }),
        ),
      );
    let updates = 0;
    const off = useEnvironments.subscribe(() => updates++);
    for (let i = 0; i < 100; i++)
      queueEnvironmentChange(makeEnv({ id: `e${i}`, link: { kind: 'connecting', since: 1 } }));
    // The same environment twice in a burst: the later change wins, each step sees the one before.
    queueEnvironmentChange(makeEnv({ id: 'e0', link: { kind: 'failed', since: 2, reason: 'gone' } }));
    expect(updates).toBe(0);
    await nextFrame();
    off();
    expect(updates).toBe(1);
    const { byId, order } = useEnvironments.getState();
    expect(order).toHaveLength(100);
    expect(byId['e0']!.link.kind).toBe('failed');
    expect(byId['e99']!.link.kind).toBe('connecting');
    expect(seen[0]).toBe('e0:connected>connecting');
    expect(seen.at(-1)).toBe('e0:connecting>failed');
    expect(seen).toHaveLength(101);
  });

  it('changes to environments already listed keep the list order as it was (the sidebar list does not redraw)', async () => {
    useEnvironments.getState().setAll([makeEnv({ id: 'a' }), makeEnv({ id: 'b' })]);
    const order = useEnvironments.getState().order;
    queueEnvironmentChange(makeEnv({ id: 'b', link: { kind: 'connecting', since: 1 } }));
    await nextFrame();
    expect(useEnvironments.getState().byId['b']!.link.kind).toBe('connecting');
    expect(useEnvironments.getState().order).toBe(order);
    // A new one is appended.
    queueEnvironmentChange(makeEnv({ id: 'c' }));
    await nextFrame();
    expect(useEnvironments.getState().order).toEqual(['a', 'b', 'c']);
  });
});
