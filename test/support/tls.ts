// Certificates for wss:// tests, made at test time by the system's openssl in a temp dir:
// self-signed or signed by a throwaway CA, for 127.0.0.1 (IP SAN), with the SHA-256 fingerprint a
// client would pin and the flags that make `tether exec-server` serve them.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type StartedServer } from './exec-servers';

const OPENSSL = '/usr/bin/openssl';

export interface TestCertificate {
  /** For a CA-signed certificate: the CA's certificate (PEM file), to trust via NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  certFile: string;
  keyFile: string;
  /** Canonical SHA-256 fingerprint (uppercase hex pairs joined by colons). */
  fingerprint: string;
  /** `--listen wss://127.0.0.1:0 --tls-cert … --tls-key …` for startServer's listen/extraArgs. */
  listen: string;
  serverArgs: string[];
  remove(): void;
}

function openssl(args: string[]): void {
  execFileSync(OPENSSL, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * A certificate for 127.0.0.1 signed by a fresh test CA, as a real server's would be by a public
 * one: it verifies only for a client that trusts `caFile`, and only for the host 127.0.0.1.
 */
export function makeCaSignedCertificate(): TestCertificate & { caFile: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-tls-ca-'));
  const file = (name: string): string => path.join(dir, name);
  openssl([
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '1',
    '-subj',
    '/CN=Tether test CA',
    '-keyout',
    file('ca-key.pem'),
    '-out',
    file('ca.pem'),
  ]);
  openssl(['req', ...EC_KEY, '-subj', '/CN=127.0.0.1', '-keyout', file('key.pem'), '-out', file('leaf.csr')]);
  writeFileSync(file('leaf.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl([
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca-key.pem'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('leaf.ext'),
    '-out',
    file('cert.pem'),
  ]);
  return { ...describeCertificate(dir), caFile: file('ca.pem') };
}

function describeCertificate(dir: string): TestCertificate {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  return {
    certFile,
    keyFile,
    fingerprint: new X509Certificate(readFileSync(certFile)).fingerprint256,
    listen: 'wss://127.0.0.1:0',
    serverArgs: ['--tls-cert', certFile, '--tls-key', keyFile],
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh self-signed EC certificate for 127.0.0.1, valid for a day. */
export function makeSelfSignedCertificate(commonName = '127.0.0.1'): TestCertificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-tls-'));
  openssl([
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '1',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ]);
  return describeCertificate(dir);
}

/** What a test registers to be undone after it, last first. */
export type Cleanups = Array<() => Promise<void> | void>;

/**
 * Tether's server on wss://127.0.0.1 serving `cert` (a fresh self-signed one by default), with
 * `token` if given (else startServer's own); stopping it and removing the certificate are pushed
 * onto `cleanups`.
 */
export async function startWssServer<C extends TestCertificate = TestCertificate>(
  cleanups: Cleanups,
  options: { token?: string; cert?: C } = {},
): Promise<{ server: StartedServer; cert: C }> {
  const cert = options.cert ?? (makeSelfSignedCertificate() as C);
  cleanups.push(() => cert.remove());
  const server = await startServer('tether', 'ws', {
    listen: cert.listen,
    extraArgs: cert.serverArgs,
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  cleanups.push(() => server.stop());
  return { server, cert };
}
