// Which WebSocket links send client frames with a real (random) masking key: every cleartext
// link that leaves this machine; TLS links and loopback ones skip the masking cost.
import { describe, expect, it } from 'vitest';
import { framesNeedMasking } from '../../../../electron/client/transports/ws/ws-transport';

describe('framesNeedMasking', () => {
  it.each([
    'ws://example.com:8080',
    'ws://10.0.0.5:7000',
    'ws://[fe80::1]:7000',
    'ws://127.example.com',
    'ws://localhost.example.com:1',
    'ws://128.0.0.1',
  ])('masks cleartext frames to %s', (url) => {
    expect(framesNeedMasking(url)).toBe(true);
  });

  it.each([
    'wss://example.com',
    'wss://10.0.0.5:7000',
    'ws://127.0.0.1:9',
    'ws://127.1.2.3',
    'ws://[::1]:9',
    'ws://localhost:9',
  ])('does not mask frames to %s', (url) => {
    expect(framesNeedMasking(url)).toBe(false);
  });
});
