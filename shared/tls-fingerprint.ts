// SHA-256 certificate fingerprints as the user sees and pins them: 32 bytes written as uppercase
// hex pairs joined by colons (the form Node's `fingerprint256` and `openssl x509 -fingerprint` use).

const CANONICAL_FINGERPRINT = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

/**
 * The canonical form of a SHA-256 fingerprint typed or pasted with or without colons, in any
 * case, also as openssl prints it (`sha256 Fingerprint=…`); null when it is not 32 bytes of hex, so a typo never becomes a pin that matches nothing.
 */
export function normalizeFingerprint(text: string): string | null {
  const hex = text
    .trim()
    .replace(/^sha-?256(?:\s+fingerprint)?\s*[:=]?\s*/i, '')
    .replace(/[:\s]/g, '')
    .toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return null;
  return hex.match(/../g)!.join(':');
}

export function isCanonicalFingerprint(text: string): boolean {
  return CANONICAL_FINGERPRINT.test(text);
}
