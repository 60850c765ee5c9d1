// Self-signed certificates for wss:// tests, made at test time by the system's openssl in a temp
// dir: for 127.0.0.1 (IP SAN), with the SHA-256 fingerprint a client would pin, and the flags that
// make `tether exec-server` serve them.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OPENSSL = '/usr/bin/openssl';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** Canonical SHA-256 fingerprint (uppercase hex pairs joined by colons). */
  fingerprint: string;
  /** `--listen wss://127.0.0.1:0 --tls-cert … --tls-key …` for startServer's listen/extraArgs. */
  listen: string;
  serverArgs: string[];
  remove(): void;
}

/** A fresh self-signed EC certificate for 127.0.0.1, valid for a day. */
export function makeSelfSignedCertificate(commonName = '127.0.0.1'): TestCertificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const fingerprint = new X509Certificate(readFileSync(certFile)).fingerprint256;
  return {
    certFile,
    keyFile,
    fingerprint,
    listen: 'wss://127.0.0.1:0',
    serverArgs: ['--tls-cert', certFile, '--tls-key', keyFile],
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
