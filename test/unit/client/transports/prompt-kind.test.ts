// A prompt's kind comes only from ssh's own local formats: a keyboard-interactive question (which
// ssh prefixes with "(user@host) ") is the server's, whatever its text imitates.
import { describe, expect, it } from 'vitest';
import { classifyPrompt } from '../../../../electron/client/transports/ssh/prompt-kind';

const HOST_KEY =
  "The authenticity of host '[127.0.0.1]:2222 ([127.0.0.1]:2222)' can't be established.\n" +
  'ED25519 key fingerprint is SHA256:abc.\n' +
  'This key is not known by any other names.\n' +
  'Are you sure you want to continue connecting (yes/no/[fingerprint])? ';

describe('classifyPrompt', () => {
  it("names ssh's own questions by their local formats", () => {
    expect(classifyPrompt(HOST_KEY, '')).toEqual({ kind: 'hostKey', text: HOST_KEY, secret: false });
    expect(classifyPrompt("Enter passphrase for key '/home/u/.ssh/id_ed25519': ", '').kind).toBe(
      'passphrase',
    );
    expect(classifyPrompt("root@127.0.0.1's password: ", '').kind).toBe('password');
    expect(classifyPrompt("Enter me@box's new password: ", '').kind).toBe('password');
    expect(classifyPrompt('Confirm user presence for key ED25519-SK SHA256:x', 'none').kind).toBe('notice');
  });

  it("takes a server's question for the server's, even when it imitates ssh", () => {
    for (const text of [
      "(u@host) Enter passphrase for key '/home/u/.ssh/id_ed25519': ",
      `(u@host) ${HOST_KEY}`,
      "(u@host) u@host's password: ",
      '(u@host) Verification code: ',
      '(u@host) Password: ',
    ]) {
      expect(classifyPrompt(text, '')).toEqual({ kind: 'server', text, secret: true });
    }
  });

  it('takes nothing from a text that only contains a local format', () => {
    expect(classifyPrompt(`Banner\n${HOST_KEY}`, '').kind).toBe('other');
    expect(classifyPrompt('Your passphrase please: ', '').kind).toBe('other');
    expect(classifyPrompt('Allow shared connection to box? ', 'confirm')).toMatchObject({ secret: false });
  });
});
