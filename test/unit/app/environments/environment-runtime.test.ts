// An environment that was removed sends no view any more, not even one throttled before the removal:
// the renderer would add it back to the sidebar (it did, until a reload).
import { describe, expect, it } from 'vitest';
import { EnvironmentRuntime } from '../../../../electron/app/environments/environment-runtime';
import { HEALTH_THROTTLE_MS } from '../../../../electron/app/limits';
import { SshPromptBroker } from '../../../../electron/app/ssh/ssh-prompts';
import type { EnvironmentView } from '../../../../shared/ipc';

function runtime(sent: EnvironmentView[]): EnvironmentRuntime {
  return new EnvironmentRuntime(
    {
      id: 'env-1',
      name: 'Build box',
      color: '#3b82f6',
      settings: { kind: 'ws', url: 'ws://127.0.0.1:9' },
      enabled: false,
    },
    false,
    {
      createClient: () => {
        throw new Error('this test never connects');
      },
      transport: () => Promise.reject(new Error('this test never connects')),
      bufferedBytes: () => 0,
      changed: (view) => sent.push(view),
      prompts: new SshPromptBroker({ opened: () => undefined, closed: () => undefined }),
    },
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, HEALTH_THROTTLE_MS * 3));

describe('EnvironmentRuntime after dispose', () => {
  it('sends views while alive, throttled ones too', async () => {
    const sent: EnvironmentView[] = [];
    const env = runtime(sent);
    env.emitNow();
    env.emitThrottled();
    await settle();
    expect(sent.map((v) => v.id)).toEqual(['env-1', 'env-1']);
  });

  it('sends nothing once disposed: not a throttled view asked for before, during or after', async () => {
    const sent: EnvironmentView[] = [];
    const env = runtime(sent);
    env.emitNow();
    env.emitThrottled();
    env.dispose();
    env.emitThrottled();
    env.emitNow();
    await env.disconnect();
    await settle();
    expect(sent).toHaveLength(1);
  });
});
