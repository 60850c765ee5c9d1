// The framing of the IPC contract over the web host's WebSocket: invoke → result, and events.
// Both the web host and the browser-side bridge use these schemas and names.
import { z } from 'zod';
import { IpcErrorPayload } from './bridge';

// Everything the web host serves lives under one per-launch path scope (`/<random>/`), so the names
// below are relative to it.
/** The WebSocket endpoint, next to the page. */
export const WEB_SOCKET_NAME = 'ipc';
/** Query parameter of the printed URL carrying the per-launch token; traded for a cookie at once. */
export const WEB_TOKEN_PARAM = 'token';
/** Query parameter carrying a one-time login code (the browser opener's URL). */
export const WEB_CODE_PARAM = 'code';
/** Prefix of one-time download URLs, after the scope. */
export const WEB_DOWNLOAD_NAME = 'download/';

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

/**
 * The WebSocket URL for the page the app was loaded from: same host, same path scope, and no
 * credential (the browser's cookie, or a client's `Authorization` header, carries it).
 */
export function webSocketUrlFor(page: { protocol: string; host: string; pathname: string }): string {
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const folder = page.pathname.slice(0, page.pathname.lastIndexOf('/') + 1) || '/';
  return `${scheme}//${page.host}${folder}${WEB_SOCKET_NAME}`;
}
