// Opens the TLS socket of a wss:// link and decides whether to trust it before a single byte of
// HTTP (and so the bearer token) is sent: with a pinned SHA-256 fingerprint the certificate must be
// exactly that one; without a pin it must verify against the system CAs for the URL's host name.
import net from 'node:net';
import tls from 'node:tls';
import { normalizeFingerprint } from '../../../../shared/tls-fingerprint';
import { ClientError } from '../../client-error';

/** Why a certificate is refused: not verifiable (no pin), or not the pinned one. */
export type CertificateProblem = 'untrusted' | 'changed';

/** A refused server certificate; its fingerprint is what a user may choose to pin. */
export class CertificateError extends ClientError {
  constructor(
    message: string,
    readonly problem: CertificateProblem,
    /** The SHA-256 fingerprint the server presented (canonical form). */
    readonly fingerprint: string,
    /** The pinned fingerprint it was compared with, for 'changed'. */
    readonly pinned: string | null,
  ) {
    super('certificate', message);
  }
}

export interface TlsTarget {
  url: string;
  host: string;
  port: number;
  /** Pinned SHA-256 fingerprint (any accepted spelling); replaces CA validation when set. */
  pin?: string;
}

/** Host and port of a wss:// URL, the IPv6 brackets removed. */
export function tlsTargetOf(url: string, pin?: string): TlsTarget {
  const parsed = new URL(url);
  return {
    url,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 443),
    ...(pin !== undefined ? { pin } : {}),
  };
}

/**
 * Connects and completes the TLS handshake, then checks the certificate. Resolves with the open,
 * trusted socket; rejects with a CertificateError (refused certificate) or a ClientError.
 */
export function openTrustedTlsSocket(target: TlsTarget, timeoutMs: number): Promise<tls.TLSSocket> {
  const pin = target.pin === undefined ? null : normalizeFingerprint(target.pin);
  if (target.pin !== undefined && pin === null) {
    return Promise.reject(
      new ClientError(
        'invalidArgument',
        `The pinned fingerprint "${target.pin}" is not a SHA-256 fingerprint (64 hex digits, colons optional).`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    // The chain is checked below instead of by OpenSSL, so that a refusal can name the fingerprint.
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      servername: net.isIP(target.host) ? undefined : target.host,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (error: ClientError): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new ClientError('timeout', `Connecting to ${target.url} timed out after ${timeoutMs} ms.`)),
      timeoutMs,
    );
    socket.once('error', (error) =>
      fail(new ClientError('transport', `Could not connect to ${target.url}: ${error.message}`)),
    );
    socket.once('secureConnect', () => {
      const refusal = refusalOf(socket, target.url, pin);
      if (refusal) return fail(refusal);
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

function refusalOf(socket: tls.TLSSocket, url: string, pin: string | null): CertificateError | null {
  const certificate = socket.getPeerCertificate();
  const presented = normalizeFingerprint(certificate.fingerprint256 ?? '') ?? '(none)';
  if (pin !== null) {
    if (presented === pin) return null;
    return new CertificateError(
      `The certificate of ${url} has changed: it is ${presented}, but ${pin} is pinned. ` +
        'Someone may be intercepting the connection; if the server got a new certificate, check its ' +
        'fingerprint on the server and pin the new one.',
      'changed',
      presented,
      pin,
    );
  }
  if (socket.authorized) return null;
  return new CertificateError(
    `The certificate of ${url} could not be verified (${String(socket.authorizationError)}); its SHA-256 ` +
      `fingerprint is ${presented}. If that is the server's certificate, pin this fingerprint.`,
    'untrusted',
    presented,
    null,
  );
}
