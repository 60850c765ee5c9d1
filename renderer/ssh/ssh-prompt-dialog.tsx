// The question ssh is asking, as a modal naming the environment: an unknown host key shows ssh's
// full text (its fingerprint) with *Trust and connect* / *Cancel*; a password, passphrase or the
// server's own question (titled as the server's, whatever its text says) is a masked field with *Cancel*. One prompt at a time, oldest first.
import { useState, type FormEvent } from 'react';
import type { SshPromptView } from '../../shared/ipc';
import { answerSshPrompt } from './ssh-actions';
import { useSshPrompts } from './ssh-prompts-store';
import { Modal } from '../ui/modal';

const FIELD_LABEL: Record<SshPromptView['kind'], string> = {
  hostKey: 'Answer',
  password: 'Password',
  passphrase: 'Key passphrase',
  server: 'Answer to the server',
  other: 'Answer',
};

/** Titles other than "ssh asks": a server's question is never shown as one of ssh's own. */
const TITLE: Partial<Record<SshPromptView['kind'], string>> = {
  hostKey: 'unknown host key',
  server: 'the server asks',
};

export function SshPromptDialog() {
  const prompt = useSshPrompts((s) => s.list[0]);
  // Keyed by prompt: the next question starts with an empty field.
  return prompt ? <PromptModal key={prompt.id} prompt={prompt} /> : null;
}

function PromptModal({ prompt }: { prompt: SshPromptView }) {
  const [answer, setAnswer] = useState('');
  const reply = (value: string | null) => void answerSshPrompt(prompt.id, value).catch(() => undefined);
  const cancel = () => reply(null);
  const title = `${prompt.envName}: ${TITLE[prompt.kind] ?? 'ssh asks'}`;

  if (prompt.kind === 'hostKey') {
    return (
      <Modal title={title} onClose={cancel}>
        <p>
          The host <span className="mono">{prompt.destination}</span> is not in your known hosts. Trust it
          only if the fingerprint below matches the host’s own key.
        </p>
        <pre className="ssh-prompt-text mono" aria-label="ssh says">
          {prompt.text}
        </pre>
        <div className="modal-actions">
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="primary" onClick={() => reply('yes')}>
            Trust and connect
          </button>
        </div>
      </Modal>
    );
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    reply(answer);
  };
  return (
    <Modal title={title} onClose={cancel}>
      <form onSubmit={onSubmit}>
        <pre className="ssh-prompt-text mono" aria-label="ssh says">
          {prompt.text}
        </pre>
        <label htmlFor="ssh-prompt-answer">{FIELD_LABEL[prompt.kind]}</label>
        <input
          id="ssh-prompt-answer"
          type={prompt.secret ? 'password' : 'text'}
          autoComplete="off"
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
        />
        <div className="modal-actions">
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Continue
          </button>
        </div>
      </form>
    </Modal>
  );
}
