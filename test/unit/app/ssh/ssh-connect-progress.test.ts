// SshConnectProgress: which stages an attempt really went through. A reconnect over a live master
// goes from connecting straight to starting the bridge; the stages between must not count as passed.
import { describe, expect, it } from 'vitest';
import { SshConnectProgress } from '../../../../electron/app/ssh/ssh-connect-progress';

describe('SshConnectProgress', () => {
  it('counts as passed only the stages an attempt entered', () => {
    const progress = new SshConnectProgress(() => undefined);
    for (const stage of ['connecting', 'authenticating', 'checking', 'starting'] as const) {
      progress.onStage({ stage });
    }
    progress.onStage({ stage: 'connected' });
    expect(progress.view.passed, 'a first connect to an installed server').toEqual([
      'connecting',
      'authenticating',
      'checking',
      'starting',
      'connected',
    ]);

    // The link drops; the master is alive, so the bootstrap reports only the bridge's start.
    progress.linkChanged({
      kind: 'reconnecting',
      since: 0,
      attempt: 1,
      nextRetryAt: null,
      reason: 'The stdio server exited with code 255.',
      sessionHeldUntil: null,
      deadlineAt: null,
    });
    expect(progress.view.passed).toEqual(['connecting']);
    progress.onStage({ stage: 'starting', detail: 'reattaching to the daemon' });
    progress.linkChanged({ kind: 'connected', since: 0, sessionId: 's' });
    expect(progress.view.passed, 'the reconnect').toEqual(['connecting', 'starting', 'connected']);
  });

  it('starts a new list with each new attempt', () => {
    const progress = new SshConnectProgress(() => undefined);
    progress.onStage({ stage: 'connecting' });
    progress.onStage({ stage: 'authenticating' });
    progress.failed('Permission denied (publickey).');
    progress.onStage({ stage: 'connecting' });
    expect(progress.view.passed).toEqual(['connecting']);
  });

  it('sends the end of an upload at once, like a new stage; progress on the way may wait', () => {
    const urgency: boolean[] = [];
    const progress = new SshConnectProgress((urgent) => urgency.push(urgent));
    progress.onStage({ stage: 'installing', bytesSent: 0, bytesTotal: 100 });
    progress.onStage({ stage: 'installing', bytesSent: 50, bytesTotal: 100 });
    progress.onStage({ stage: 'installing', bytesSent: 100, bytesTotal: 100 });
    expect(urgency).toEqual([true, false, true]);
  });
});
