// A saved token belongs to the origin it was saved for. Two real Tether servers share one token
// on different ports, so a token that leaked to the second origin would visibly work there:
// "Test connection" and saving an edited URL must both ask for the token again instead.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { createHarness, waitFor, type Harness } from './app-harness';

let saved: StartedServer;
/** Another origin (another port) that would accept the same token. */
let elsewhere: StartedServer;
let h: Harness;

beforeAll(async () => {
  saved = await startServer('tether', 'ws');
  elsewhere = await startServer('tether', 'ws', { token: saved.token });
});
afterAll(async () => {
  await saved?.stop();
  await elsewhere?.stop();
});
afterEach(async () => {
  await h?.close();
});

async function addSavedEnvironment(): Promise<string> {
  h = await createHarness({ autoConnect: false });
  const env = await h.invoke('environments.add', {
    name: 'Saved',
    color: '#336699',
    settings: { kind: 'ws', url: saved.url! },
    token: saved.token,
  });
  await waitFor(
    async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === env.id)?.link.kind === 'connected',
    'the saved environment connected',
  );
  return env.id;
}

describe('a saved token stays with its origin', () => {
  it('Test connection uses it for its own origin only; another URL needs the token typed', async () => {
    const id = await addSavedEnvironment();
    const test = (url: string, token?: string) =>
      h.invoke('environments.test', { id, settings: { kind: 'ws', url }, ...(token ? { token } : {}) });

    expect(await test(saved.url!)).toMatchObject({ ok: true, stage: 'ok' });
    // The same origin written differently is still the same server.
    expect(await test(`${saved.url!}/`)).toMatchObject({ ok: true, stage: 'ok' });

    const moved = await test(elsewhere.url!);
    expect(moved).toMatchObject({ ok: false, stage: 'auth' });
    expect(moved.message).toContain(`The saved token was not sent: it belongs to ${saved.url}`);
    expect(moved.message).toContain('Enter the token again');

    expect(await test(elsewhere.url!, saved.token)).toMatchObject({ ok: true, stage: 'ok' });
  });

  it('saving a URL of another origin without a token is refused; with the token typed it connects', async () => {
    const id = await addSavedEnvironment();
    const draft = { name: 'Saved', color: '#336699', settings: { kind: 'ws' as const, url: elsewhere.url! } };

    await expect(h.invoke('environments.update', { id, draft })).rejects.toMatchObject({
      code: 'invalidInput',
      message: expect.stringContaining('Enter the token again for the new URL') as unknown,
    });
    const unchanged = (await h.invoke('environments.list', {})).find((e) => e.id === id);
    expect(unchanged).toMatchObject({ settings: { kind: 'ws', url: saved.url }, hasToken: true });

    const moved = await h.invoke('environments.update', { id, draft: { ...draft, token: saved.token } });
    expect(moved).toMatchObject({ settings: { url: elsewhere.url }, hasToken: true });
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === id)?.link.kind === 'connected',
      'connected at the new origin with the typed token',
    );
  });
});
