// A WebSocket environment: an exec-server already listening at a ws:// or wss:// URL.
import { z } from 'zod';

export const WsSettings = z.object({
  kind: z.literal('ws'),
  url: z.string().min(1).max(2000),
  /**
   * wss only: the pinned SHA-256 fingerprint of the server certificate (see
   * shared/tls-fingerprint.ts). When set it replaces CA validation; absent, the system CAs decide.
   */
  tlsFingerprint: z.string().max(200).optional(),
});
