// Classifies what ssh asks through SSH_ASKPASS (host-key confirmation, password, key passphrase,
// the server's own questions) so the UI can show the right dialog. ssh passes no structured kind,
// only the text and, for pure notices (FIDO touch), SSH_ASKPASS_PROMPT=none. The server chooses the
// text of keyboard-interactive prompts, so a kind is taken only from ssh's own local formats; ssh
// marks server prompts with a `(user@host) ` prefix, and those are always "the server asks".
import type { SshPrompt } from './ssh-hooks';

export type AskpassRequest =
  { kind: 'notice'; text: string } | { kind: SshPrompt['kind']; text: string; secret: boolean };

/** OpenSSH's prefix of a keyboard-interactive prompt: the text after it is the server's. */
const SERVER_PROMPT = /^\([^()\s]+@[^()\s]+\) /;
/** ssh's own unknown-host question (or its key-mismatch warning), which ends in a yes/no. */
const HOST_KEY_PROMPT =
  /^(The authenticity of host '|Warning: )[\s\S]*Are you sure you want to continue connecting \(yes\/no(\/\[fingerprint\])?\)\? ?$/;
/** `Enter passphrase for key '<file>': ` */
const PASSPHRASE_PROMPT = /^Enter passphrase for key '[^\n]*': ?$/;
/** `user@host's password: `, and the expired-password change questions. */
const PASSWORD_PROMPT = /^((Enter|Retype) )?[^\s@]+@\S+'s ((old|new) )?password: ?$/;

export function classifyPrompt(text: string, askpassPrompt: string): AskpassRequest {
  if (askpassPrompt === 'none') return { kind: 'notice', text };
  // Whatever the server's text resembles, it is never taken for a question of ssh's own.
  if (SERVER_PROMPT.test(text)) return { kind: 'server', text, secret: true };
  if (HOST_KEY_PROMPT.test(text)) return { kind: 'hostKey', text, secret: false };
  if (PASSPHRASE_PROMPT.test(text)) return { kind: 'passphrase', text, secret: true };
  if (PASSWORD_PROMPT.test(text)) return { kind: 'password', text, secret: true };
  // A yes/no confirmation ssh marks as such; any other question could be a secret, so mask it.
  return { kind: 'other', text, secret: askpassPrompt !== 'confirm' };
}
