// Classifies what ssh asks through SSH_ASKPASS (host-key confirmation, password, key passphrase,
// one-time code) from its own prompt text, so the UI can show the right dialog. ssh passes no
// structured kind, only the text and, for pure notices (FIDO touch), SSH_ASKPASS_PROMPT=none.
import type { SshPrompt } from './ssh-hooks';

export type AskpassRequest =
  { kind: 'notice'; text: string } | { kind: SshPrompt['kind']; text: string; secret: boolean };

export function classifyPrompt(text: string, askpassPrompt: string): AskpassRequest {
  if (askpassPrompt === 'none') return { kind: 'notice', text };
  if (/authenticity of host|continue connecting/i.test(text)) return { kind: 'hostKey', text, secret: false };
  if (/passphrase/i.test(text)) return { kind: 'passphrase', text, secret: true };
  if (/password/i.test(text)) return { kind: 'password', text, secret: true };
  if (/verification code|one-time|\botp\b|token|\bpin\b|passcode/i.test(text)) {
    return { kind: 'otp', text, secret: true };
  }
  // A yes/no confirmation ssh marks as such; any other question could be a secret, so mask it.
  return { kind: 'other', text, secret: askpassPrompt !== 'confirm' };
}
