// A WebSocket environment: a URL (ws:// or wss://, a pinned certificate only with wss://), a
// bearer token that goes only to its origin, and a first connect that retries by itself (the
// server may not be up yet). "Test connection" resolves the name, opens a TCP connection and, for
// wss://, checks the certificate on its own, so a refusal can carry the fingerprint.
import { errorMessage } from '../../../../shared/error-message';
import { promises as dns } from 'node:dns';
import net from 'node:net';
import { normalizeFingerprint } from '../../../../shared/tls-fingerprint';
import { CertificateError, openTrustedTlsSocket, tlsTargetOf } from '../../../client/transports/ws/tls-trust';
import { AppError } from '../../app-error';
import { StageFailure, withDeadline } from '../test-stage';
import type { AppEnvironmentKind } from './app-kind';

export const wsAppKind: AppEnvironmentKind<'ws'> = {
  kind: 'ws',
  userAdded: true,
  check: (settings) => {
    const url = parseWsUrl(settings.url);
    if (settings.tlsFingerprint === undefined || settings.tlsFingerprint === '') {
      return { kind: 'ws', url: settings.url };
    }
    if (url.protocol !== 'wss:') {
      throw new AppError('invalidInput', 'A certificate fingerprint can only be pinned for a wss:// URL.');
    }
    const fingerprint = normalizeFingerprint(settings.tlsFingerprint);
    if (fingerprint === null) {
      throw new AppError(
        'invalidInput',
        `"${settings.tlsFingerprint}" is not a SHA-256 fingerprint (64 hex digits, colons optional).`,
      );
    }
    return { kind: 'ws', url: settings.url, tlsFingerprint: fingerprint };
  },
  usesToken: true,
  retriesFirstConnect: true,
  bootstrapsHost: false,
  preflight: async (spec, deadline) => {
    if (spec.kind !== 'ws') return;
    await probeSocket(spec.url, deadline);
    if (spec.url.startsWith('wss://')) await probeCertificate(spec.url, spec.tlsFingerprint, deadline);
  },
};

function parseWsUrl(rawUrl: string): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AppError('invalidInput', `"${rawUrl}" is not a URL; use the form ws://host:port.`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new AppError('invalidInput', `"${rawUrl}" must start with ws:// or wss://.`);
  }
  return url;
}

async function probeSocket(rawUrl: string, deadline: number): Promise<void> {
  const url = parseWsUrl(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'wss:' ? 443 : 80));
  let address = host;
  if (net.isIP(host) === 0) {
    try {
      address = (await withDeadline(dns.lookup(host), deadline, `Looking up ${host} took too long.`)).address;
    } catch (error) {
      if (error instanceof StageFailure) throw error;
      throw new StageFailure(
        'dns',
        `The host name ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}). Check the spelling and your network.`,
      );
    }
  }
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const timer = setTimeout(
      () => {
        socket.destroy();
        reject(
          new StageFailure(
            'timeout',
            `Nothing answered at ${host}:${port} in time; a firewall may be dropping the connection.`,
          ),
        );
      },
      Math.max(1, deadline - Date.now()),
    );
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new StageFailure(
          'refused',
          error.code === 'ECONNREFUSED'
            ? `Connection refused by ${host}:${port}: no exec-server is listening there. Is it running, and is the port right?`
            : `Could not reach ${host}:${port} (${error.code ?? error.message}).`,
        ),
      );
    });
  });
}

/** The TLS handshake and certificate check on their own, so a refusal can carry the fingerprint. */
async function probeCertificate(url: string, pin: string | undefined, deadline: number): Promise<void> {
  try {
    const socket = await openTrustedTlsSocket(tlsTargetOf(url, pin), Math.max(1, deadline - Date.now()));
    socket.destroy();
  } catch (error) {
    if (!(error instanceof CertificateError)) throw error;
    throw new StageFailure('certificate', error.message, {
      problem: error.problem,
      fingerprint: error.fingerprint,
      pinned: error.pinned,
    });
  }
}
