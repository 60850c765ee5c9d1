// A WebSocket environment (`--server`): an exec-server listening at a ws:// or wss:// URL. A new
// link reaches the same long-lived server, so it can resume the session.
import { ClientError } from '../../client-error';
import type { ClientEnvironmentKind, TransportKind } from '../environment-kind';
import { openWsTransport } from './ws-transport';

export const wsKind: ClientEnvironmentKind<'ws'> = {
  kind: 'ws',
  toSpec: (settings, { token, tokenFile }) => ({
    kind: 'ws',
    url: settings.url,
    ...(token ? { token } : {}),
    ...(tokenFile !== undefined ? { tokenFile } : {}),
    ...(settings.tlsFingerprint ? { tlsFingerprint: settings.tlsFingerprint } : {}),
  }),
  cli: {
    select: {
      flags: '--server <url>',
      description: 'exec-server WebSocket URL, ws://HOST:PORT or wss://HOST:PORT',
    },
    example: '--server ws://HOST:PORT',
    options: [
      { flags: '--token-file <file>', description: 'file holding the bearer token for --server' },
      {
        flags: '--tls-fingerprint <sha256>',
        description: "pin the wss:// server certificate's SHA-256 fingerprint (instead of CA validation)",
      },
    ],
    fromOptions: (url, options) => {
      if (!/^wss?:\/\//.test(url)) {
        throw new ClientError('invalidArgument', `--server expects a ws:// or wss:// URL, got "${url}".`);
      }
      const tlsFingerprint = options.tlsFingerprint as string | undefined;
      const tokenFile = options.tokenFile as string | undefined;
      return {
        settings: { kind: 'ws', url, ...(tlsFingerprint !== undefined ? { tlsFingerprint } : {}) },
        context: tokenFile !== undefined ? { tokenFile } : {},
      };
    },
    strayOption: (options) =>
      options.tlsFingerprint !== undefined ? '--tls-fingerprint needs a wss:// --server URL.' : null,
  },
};

export const wsTransport: TransportKind<'ws'> = {
  opener: (spec) => ({
    prepare: () => Promise.resolve(),
    open: (handlers, timeoutMs) => openWsTransport(spec, handlers, timeoutMs),
    dispose: () => undefined,
  }),
  whyLinkCannotResume: () => null,
};
