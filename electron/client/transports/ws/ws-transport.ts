// WebSocket transport: one text frame per JSON-RPC message (binary for Tether's data frames), `Authorization: Bearer` auth, never an
// Origin header (codex refuses any), no compression, large inbound messages allowed. After inbound
// data it sends one unsolicited pong per tick so our TCP ACK leaves at once (see docs/client.md).
// A wss:// link is trusted (CA-verified or pinned, see tls-trust.ts) before the upgrade is sent.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { ClientError, inboundMessageTooLarge } from '../../client-error';
import { MAX_INBOUND_MESSAGE_BYTES } from '../../constants';
import { openTrustedTlsSocket, tlsTargetOf } from './tls-trust';
import type { Transport, TransportHandlers } from '../transport-types';
import { errorMessage } from '../../../../shared/error-message';

/** Close code for a message past `maxPayload` (RFC 6455: message too big), and ws's error code. */
const MESSAGE_TOO_BIG = 1009;
const WS_MESSAGE_TOO_BIG_ERROR = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

function errorCode(error: Error | null): unknown {
  return (error as { code?: unknown } | null)?.code;
}

export interface WsTransportSpec {
  url: string;
  token?: string;
  tokenFile?: string;
  tlsFingerprint?: string;
}

/** For wss://, a socket whose certificate is already trusted; undefined for ws://. */
async function trustedSocketFor(spec: WsTransportSpec, timeoutMs: number): Promise<Socket | undefined> {
  const secure = spec.url.startsWith('wss://');
  if (!secure) {
    if (spec.tlsFingerprint === undefined) return undefined;
    throw new ClientError(
      'invalidArgument',
      `A certificate fingerprint was given for ${spec.url}, which is not encrypted; use a wss:// URL.`,
    );
  }
  return openTrustedTlsSocket(tlsTargetOf(spec.url, spec.tlsFingerprint), timeoutMs);
}

/**
 * RFC 6455 masks client frames so a script's bytes cannot pose as HTTP to a cleartext proxy on the
 * path. Over TLS, or to this machine itself, no such proxy can read the frames, and ws's masking in
 * JavaScript (byte by byte, on both ends) costs a quarter of an upload's CPU: there the key is all
 * zeros, which ws on either end skips. Any other ws:// link keeps random keys.
 */
export function framesNeedMasking(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'wss:') return false;
  const host = hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host));
}

function zeroMask(mask: Buffer): void {
  mask.fill(0);
}

async function resolveToken(spec: WsTransportSpec): Promise<string | undefined> {
  if (spec.token !== undefined) return spec.token;
  if (spec.tokenFile === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(spec.tokenFile, 'utf8');
  } catch (error) {
    throw new ClientError(
      'auth',
      `Could not read the token file ${spec.tokenFile}: ${errorMessage(error)}. Check the --token-file path.`,
    );
  }
  const token = text.trim();
  if (!token) throw new ClientError('auth', `The token file ${spec.tokenFile} is empty.`);
  return token;
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (body.length < 1000) body += d;
    });
    res.on('end', () => resolve(body.trim()));
    res.on('error', () => resolve(body.trim()));
  });
}

export async function openWsTransport(
  spec: WsTransportSpec,
  handlers: TransportHandlers,
  timeoutMs: number,
): Promise<Transport> {
  const token = await resolveToken(spec);
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  const trustedSocket = await trustedSocketFor(spec, timeoutMs);
  const ws = new WebSocket(spec.url, {
    headers,
    // The upgrade (with the token) goes out on the socket whose certificate was checked.
    ...(trustedSocket ? { createConnection: () => trustedSocket } : {}),
    perMessageDeflate: false,
    maxPayload: MAX_INBOUND_MESSAGE_BYTES,
    handshakeTimeout: timeoutMs,
    followRedirects: false,
    // Text is checked where it is parsed; validating every output frame's UTF-8 first cost CPU.
    skipUTF8Validation: true,
    ...(framesNeedMasking(spec.url) ? {} : { generateMask: zeroMask }),
  });

  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: ClientError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new ClientError('timeout', `Connecting to ${spec.url} timed out after ${timeoutMs} ms.`)),
      timeoutMs,
    );
    ws.once('unexpected-response', (req, res) => {
      void readBody(res).then((body) => {
        const detail = body ? `: ${body}` : '';
        if (res.statusCode === 401) {
          fail(
            new ClientError(
              'auth',
              `The server at ${spec.url} refused the credentials (HTTP 401${detail}). Check the token.`,
            ),
          );
        } else {
          fail(
            new ClientError(
              'transport',
              `The server at ${spec.url} answered the WebSocket upgrade with HTTP ${res.statusCode}${detail}.`,
            ),
          );
        }
      });
      req.destroy();
    });
    ws.once('upgrade', (res: IncomingMessage) => {
      res.socket.setNoDelay(true);
      res.socket.on('data', () => handlers.onActivity());
    });
    ws.once('error', (error) =>
      fail(new ClientError('transport', `Could not connect to ${spec.url}: ${error.message}`)),
    );
    ws.once('open', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners('error');
      resolve();
    });
  });

  let closedByUs = false;
  let lastError: Error | null = null;
  let pongQueued = false;
  const sendPong = (): void => {
    pongQueued = false;
    if (ws.readyState === WebSocket.OPEN) ws.pong();
  };

  ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    handlers.onMessage(
      Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data),
      isBinary,
    );
    if (!pongQueued) {
      pongQueued = true;
      setImmediate(sendPong);
    }
  });
  ws.on('error', (error) => {
    lastError = error;
  });
  ws.on('close', (code, reason) => {
    if (closedByUs) return;
    if (code === MESSAGE_TOO_BIG || errorCode(lastError) === WS_MESSAGE_TOO_BIG_ERROR) {
      handlers.onClose(inboundMessageTooLarge(`The server at ${spec.url}`, MAX_INBOUND_MESSAGE_BYTES));
      return;
    }
    const why = reason.length > 0 ? `, ${reason.toString('utf8')}` : '';
    const err = lastError ? `: ${lastError.message}` : '';
    handlers.onClose(
      new ClientError(
        'disconnected',
        `The connection to ${spec.url} was lost (close code ${code}${why})${err}.`,
      ),
    );
  });

  return {
    description: spec.url,
    hasPings: true,
    send(text) {
      if (ws.readyState !== WebSocket.OPEN) {
        throw new ClientError('disconnected', `The connection to ${spec.url} is not open.`);
      }
      ws.send(text);
    },
    sendDataFrame(frame, written) {
      if (ws.readyState !== WebSocket.OPEN) {
        throw new ClientError('disconnected', `The connection to ${spec.url} is not open.`);
      }
      ws.send(frame, { binary: true }, (error) => {
        if (!error) written?.();
      });
    },
    ping() {
      if (ws.readyState === WebSocket.OPEN) ws.ping();
      return true;
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      ws.terminate();
    },
  };
}
