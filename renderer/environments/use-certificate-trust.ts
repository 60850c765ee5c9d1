// The certificate pin of a wss:// environment, and the question about a certificate that does not
// verify: a test that stops at the certificate check asks the user, and what was under way (a test
// or a save) goes on once they trust it. Nothing is pinned unasked.
import { useState } from 'react';
import type { TestConnectionResult } from '../../shared/ipc';
import type { RefusedCertificate } from './trust-certificate-prompt';

/** What waits on the answer about a refused certificate. */
export type AfterTrust = 'test' | 'save';

export interface CertificateTrust {
  /** The pinned SHA-256 fingerprint, if any. */
  pin: string | null;
  /** The refused certificate waiting for the user's answer. */
  asking: RefusedCertificate | null;
  /** Asks about the certificate `result` refused, if it did; true when it asks. */
  askIfRefused: (result: TestConnectionResult | null, then: AfterTrust) => boolean;
  /** The user trusts the certificate: it is pinned; returns what was waiting. */
  trust: (fingerprint: string) => AfterTrust | undefined;
  reject: () => void;
  forget: () => void;
}

export function useCertificateTrust(initialPin: string | null): CertificateTrust {
  const [pin, setPin] = useState(initialPin);
  const [prompt, setPrompt] = useState<{ certificate: RefusedCertificate; then: AfterTrust } | null>(null);

  const askIfRefused: CertificateTrust['askIfRefused'] = (result, then) => {
    const certificate = result?.stage === 'certificate' ? (result.certificate ?? null) : null;
    if (certificate) setPrompt({ certificate, then });
    return certificate !== null;
  };

  const trust = (fingerprint: string) => {
    const then = prompt?.then;
    setPrompt(null);
    setPin(fingerprint);
    return then;
  };

  return {
    pin,
    asking: prompt?.certificate ?? null,
    askIfRefused,
    trust,
    reject: () => setPrompt(null),
    forget: () => setPin(null),
  };
}
