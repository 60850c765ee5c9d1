// The framing of the IPC contract over the web host's WebSocket: invoke → result, and events.
// Both the web host and the browser-side bridge use these schemas and names.
import { z } from 'zod';
import { IpcErrorPayload } from './contract';

/** Path of the WebSocket endpoint on the web host. */
export const WEB_SOCKET_PATH = '/ipc';
/** Query parameter carrying the per-launch token (page URL and WebSocket URL). */
export const WEB_TOKEN_PARAM = 'token';
/** Prefix of one-time download URLs. */
export const WEB_DOWNLOAD_PATH = '/download/';

export const WebInvokeMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  name: z.string().max(200),
  input: z.unknown(),
});
export type WebInvokeMessage = z.infer<typeof WebInvokeMessage>;

const WebResultMessage = z.union([
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), output: z.unknown() }),
  z.object({
    type: z.literal('result'),
    /** -1 when the request's id could not be read. */
    id: z.number().int(),
    ok: z.literal(false),
    error: IpcErrorPayload,
  }),
]);
export type WebResultMessage = z.infer<typeof WebResultMessage>;

const WebEventMessage = z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() });
export type WebEventMessage = z.infer<typeof WebEventMessage>;

export const WebServerMessage = z.union([WebResultMessage, WebEventMessage]);
export type WebServerMessage = z.infer<typeof WebServerMessage>;

/** The WebSocket URL for the page the app was loaded from (same host, same token). */
export function webSocketUrlFor(page: { protocol: string; host: string; search: string }): string {
  const token = new URLSearchParams(page.search).get(WEB_TOKEN_PARAM) ?? '';
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${page.host}${WEB_SOCKET_PATH}?${WEB_TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
