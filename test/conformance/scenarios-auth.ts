// Conformance scenarios for WebSocket authentication (capability token) and the HTTP surface of
// the listener: 401 bodies, the Origin refusal, /readyz and unknown paths.
import { UpgradeRefusedError, type WsConnectOptions } from '../support/rpc-peer';
import type { Scenario, ScenarioContext } from './scenario-kit';

/** Tries a WebSocket upgrade and records the HTTP refusal (status, content-type, body) or success. */
async function attempt(ctx: ScenarioContext, label: string, options: WsConnectOptions): Promise<void> {
  try {
    const peer = await ctx.connect(options);
    await peer.handshake();
    ctx.record(label, { connected: true, status: await peer.request('environment/status') });
  } catch (error) {
    if (!(error instanceof UpgradeRefusedError)) throw error;
    ctx.record(label, {
      status: error.status,
      contentType: error.headers['content-type'] ?? null,
      body: error.body,
    });
  }
}

async function get(ctx: ScenarioContext, pathname: string): Promise<unknown> {
  const url = new URL(ctx.server().url as string);
  const response = await fetch(`http://${url.host}${pathname}`);
  return { status: response.status, body: await response.text() };
}

export const authScenarios: Scenario[] = [
  {
    name: 'auth: bearer token required, checked, and accepted',
    transports: ['ws'],
    run: async (ctx) => {
      await attempt(ctx, 'no header', {});
      await attempt(ctx, 'wrong token', { headers: { Authorization: 'Bearer wrong' } });
      await attempt(ctx, 'basic scheme', { headers: { Authorization: `Basic ${ctx.token}` } });
      await attempt(ctx, 'no space', { headers: { Authorization: `Bearer${ctx.token}` } });
      await attempt(ctx, 'right token', { headers: { Authorization: `Bearer ${ctx.token}` } });
      await attempt(ctx, 'lowercase scheme, padded token', {
        headers: { Authorization: `bearer   ${ctx.token}  ` },
      });
    },
  },
  {
    name: 'auth: any Origin header is refused with 403, even with a valid token',
    transports: ['ws'],
    run: async (ctx) => {
      const headers = { Authorization: `Bearer ${ctx.token}` };
      await attempt(ctx, 'loopback origin', { headers, origin: 'http://127.0.0.1' });
      await attempt(ctx, 'null origin', { headers, origin: 'null' });
      await attempt(ctx, 'origin without token', { origin: 'https://example.com' });
    },
  },
  {
    name: 'http: /readyz is public, other paths are 404, plain GET / is 400',
    transports: ['ws'],
    run: async (ctx) => {
      ctx.record('readyz', await get(ctx, '/readyz'));
      ctx.record('healthz', await get(ctx, '/healthz'));
      ctx.record('other', await get(ctx, '/some/path'));
      ctx.record('root', await get(ctx, '/'));
    },
  },
];
