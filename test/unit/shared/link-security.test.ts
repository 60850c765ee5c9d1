// The pure link-security helpers both sides share: fingerprint spelling and the loopback rule.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isUnencryptedRemoteUrl } from '../../../shared/link-encryption';
import { normalizeFingerprint } from '../../../shared/tls-fingerprint';

const CANONICAL = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0').toUpperCase()).join(
  ':',
);

describe('certificate fingerprints', () => {
  it('accepts any case, with or without colons, and nothing that is not 32 bytes of hex', () => {
    expect(normalizeFingerprint(CANONICAL)).toBe(CANONICAL);
    expect(normalizeFingerprint(CANONICAL.replace(/:/g, '').toLowerCase())).toBe(CANONICAL);
    // As `openssl x509 -noout -fingerprint -sha256` prints it.
    expect(normalizeFingerprint(`sha256 Fingerprint=${CANONICAL}`)).toBe(CANONICAL);
    expect(normalizeFingerprint(`SHA256:${CANONICAL}`)).toBe(CANONICAL);
    expect(normalizeFingerprint(CANONICAL.slice(3))).toBeNull();
    expect(normalizeFingerprint(`${CANONICAL}:00`)).toBeNull();
    expect(normalizeFingerprint(CANONICAL.replace('0F', 'G0'))).toBeNull();
  });
});

describe('unencrypted links', () => {
  it('calls only ws:// to a non-loopback host unencrypted', () => {
    for (const host of [
      '127.0.0.1',
      '127.255.0.9',
      'localhost',
      'LOCALHOST',
      '[::1]',
      '::1',
      '[::ffff:7f00:1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      '10.0.0.2',
      '128.0.0.1',
      'example.com',
      '[::2]',
      '0.0.0.0',
      'localhost.example.com',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
    expect(isUnencryptedRemoteUrl('ws://10.0.0.2:7000')).toBe(true);
    expect(isUnencryptedRemoteUrl('ws://[::ffff:127.0.0.1]:7000')).toBe(false);
    expect(isUnencryptedRemoteUrl('wss://10.0.0.2:7000')).toBe(false);
    expect(isUnencryptedRemoteUrl('ws://127.0.0.1:7000')).toBe(false);
    expect(isUnencryptedRemoteUrl('not a url')).toBe(false);
  });
});
