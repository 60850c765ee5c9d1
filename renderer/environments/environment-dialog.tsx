// Add or edit an environment: name, colour, how to reach it (an SSH host, a WebSocket URL + token,
// or a command whose stdio speaks the protocol), validated before saving, with a "test connection"
// that names the stage that failed (for SSH, its stages live). A wss:// certificate that does not verify is shown and pinned only if the
// user trusts it (on test, and before adding or saving an unpinned wss:// environment).
import { useEffect, useState, type FormEvent } from 'react';
import {
  EnvironmentDraft,
  type EnvironmentSettings,
  type EnvironmentView,
  type SshConnectView,
  type TestConnectionResult,
  type TokenStorageView,
} from '../../shared/ipc';
import { invoke, onEvent } from '../ipc/ipc-client';
import { addEnvironment, testConnection, updateEnvironment } from './environment-actions';
import { errorMessage } from '../../shared/error-message';
import { sameTokenOrigin, tokenOrigin } from '../../shared/token-origin';
import { formatMs } from '../ui/format';
import { useEnvironments } from './environments-store';
import { Modal } from '../ui/modal';
import { TrustCertificatePrompt, type RefusedCertificate } from './trust-certificate-prompt';
import { UnencryptedNote } from './unencrypted-note';
import { ErrorLine } from '../ui/error-line';
import { freeEnvironmentColour } from '../../shared/environment-colours';
import { sshFormFromSettings, sshSettingsFromForm, type SshFormErrors } from '../ssh/ssh-form';
import { SshConnectStages } from '../ssh/ssh-connect-stages';
import { SshFields } from '../ssh/ssh-fields';

type Kind = EnvironmentSettings['kind'];

const STAGE_TEXT: Record<TestConnectionResult['stage'], string> = {
  dns: 'name resolution',
  refused: 'connecting (refused)',
  certificate: 'server certificate check',
  auth: 'authentication',
  handshake: 'protocol handshake',
  version: 'server version check',
  timeout: 'timed out',
  spawn: 'starting the command',
  ok: 'all stages passed',
};

interface FormErrors {
  name?: string;
  color?: string;
  target?: string;
  token?: string;
}

export function EnvironmentDialog({
  existing,
  onClose,
}: {
  existing?: EnvironmentView;
  onClose: () => void;
}) {
  const initialKind: Kind = existing?.settings.kind ?? 'ws';
  const [name, setName] = useState(existing?.name ?? '');
  const [color, setColor] = useState(
    () =>
      existing?.color ??
      freeEnvironmentColour(Object.values(useEnvironments.getState().byId).map((e) => e.color.toLowerCase())),
  );
  const [kind, setKind] = useState<Kind>(initialKind);
  const [url, setUrl] = useState(existing?.settings.kind === 'ws' ? existing.settings.url : '');
  const [commandLine, setCommandLine] = useState(
    existing?.settings.kind === 'command' ? existing.settings.commandLine : '',
  );
  const [ssh, setSsh] = useState(() => sshFormFromSettings(existing?.settings));
  const [sshErrors, setSshErrors] = useState<SshFormErrors>({});
  // Live stages of an SSH *Test connection* while it runs (then its result's).
  const [sshTest, setSshTest] = useState<SshConnectView | null>(null);
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<TestConnectionResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tokenStorage = useTokenStorage();
  const [pin, setPin] = useState<string | null>(
    existing?.settings.kind === 'ws' ? (existing.settings.tlsFingerprint ?? null) : null,
  );
  // A refused certificate waiting for the user's answer, and what to do once it is trusted.
  const [prompt, setPrompt] = useState<{ certificate: RefusedCertificate; then: 'test' | 'save' } | null>(
    null,
  );

  const isWss = () => kind === 'ws' && url.trim().startsWith('wss://');

  const settings = (pinned: string | null = pin): EnvironmentSettings | null => {
    switch (kind) {
      case 'ws':
        return { kind, url: url.trim(), ...(pinned && isWss() ? { tlsFingerprint: pinned } : {}) };
      case 'command':
        return { kind, commandLine: commandLine.trim() };
      case 'ssh': {
        const checked = sshSettingsFromForm(ssh);
        return checked.ok ? checked.settings : null;
      }
      case 'local':
        return { kind };
    }
  };

  const tokenField = () => (kind === 'ws' && token ? { token } : {});
  // The saved token is sent only to the origin it was saved for (the AppService enforces it too).
  const tokenLeftBehind =
    kind === 'ws' &&
    existing?.hasToken === true &&
    /^wss?:\/\/[^\s/]+/.test(url.trim()) &&
    !sameTokenOrigin(existing.settings, settings()!);
  const tokenPlaceholder = tokenLeftBehind
    ? 'enter it again for the new URL'
    : existing?.hasToken
      ? 'stored (leave empty to keep)'
      : 'optional';

  /** The URL or command line, checked before a test or a save (never a raw schema message). */
  function targetError(): string | undefined {
    if (kind === 'ws' && !/^wss?:\/\/[^\s/]+/.test(url.trim())) return 'Enter a URL like ws://host:port.';
    if (kind === 'command' && !commandLine.trim()) return 'Enter the command to run.';
    if (kind === 'ssh' && !sshSettingsFromForm(ssh).ok) return 'Check the SSH fields.';
    return undefined;
  }

  function validate(pinned: string | null = pin): EnvironmentDraft | null {
    const next: FormErrors = {};
    if (!name.trim()) next.name = 'Give the environment a name.';
    if (!/^#[0-9a-fA-F]{6}$/.test(color)) next.color = 'Pick a colour like #3b82f6.';
    const target = targetError();
    if (target) next.target = target;
    const sshChecked = kind === 'ssh' ? sshSettingsFromForm(ssh) : null;
    setSshErrors(sshChecked && !sshChecked.ok ? sshChecked.errors : {});
    if (tokenLeftBehind && !token) {
      next.token = `The saved token belongs to ${tokenOrigin(existing.settings) ?? 'the old URL'}; enter the token for this URL.`;
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return null;
    const parsed = EnvironmentDraft.safeParse({ name, color, settings: settings(pinned), ...tokenField() });
    if (!parsed.success) {
      setSubmitError(parsed.error.issues.map((i) => i.message).join('; '));
      return null;
    }
    return parsed.data;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const draft = validate();
    if (!draft) return;
    setBusy(true);
    setSubmitError(null);
    if (isWss() && pin === null) {
      // Ask about a certificate that does not verify now, rather than fail after saving.
      const refused = refusedCertificate(await runTest(null));
      if (refused) {
        setPrompt({ certificate: refused, then: 'save' });
        setBusy(false);
        return;
      }
    }
    await save(draft);
  }

  async function save(draft: EnvironmentDraft) {
    setBusy(true);
    try {
      if (existing) await updateEnvironment(existing.id, draft);
      else await addEnvironment(draft);
      onClose();
    } catch (error) {
      setSubmitError(errorMessage(error));
      setBusy(false);
    }
  }

  /** Runs "test connection" with the given pin and shows its result; null if it could not run. */
  async function runTest(pinned: string | null): Promise<TestConnectionResult | null> {
    const target = settings(pinned);
    if (!target) {
      validate(pinned);
      return null;
    }
    setTesting(true);
    setTest(null);
    setTestError(null);
    setSshTest(null);
    const testId = crypto.randomUUID();
    const stopProgress =
      target.kind === 'ssh'
        ? onEvent('ssh.testProgress', (event) => event.testId === testId && setSshTest(event.progress))
        : () => undefined;
    try {
      const result = await testConnection({
        settings: target,
        ...tokenField(),
        ...(existing ? { id: existing.id } : {}),
        ...(target.kind === 'ssh' ? { testId, name: name.trim() || undefined } : {}),
      });
      setTest(result);
      if (result.ssh) setSshTest(result.ssh);
      return result;
    } catch (error) {
      setTestError(`Could not run the test: ${errorMessage(error)}`);
      return null;
    } finally {
      stopProgress();
      setTesting(false);
    }
  }

  function refusedCertificate(result: TestConnectionResult | null): RefusedCertificate | null {
    return result?.stage === 'certificate' ? (result.certificate ?? null) : null;
  }

  async function onTest() {
    // Only what the test needs is checked: a name is not needed to try a connection.
    const target = targetError();
    setErrors((current) => ({ ...current, target }));
    if (target) {
      setTest(null);
      setTestError(null);
      return;
    }
    const refused = refusedCertificate(await runTest(pin));
    if (refused) setPrompt({ certificate: refused, then: 'test' });
  }

  async function onTrust(fingerprint: string) {
    const then = prompt?.then;
    setPrompt(null);
    setPin(fingerprint);
    if (then === 'save') {
      const draft = validate(fingerprint);
      if (draft) await save(draft);
    } else {
      await runTest(fingerprint);
    }
  }

  return (
    <Modal title={existing ? `Edit ${existing.name}` : 'Add environment'} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <label htmlFor="env-name">Name</label>
          <input
            id="env-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!errors.name}
          />
          {errors.name && <span className="field-error">{errors.name}</span>}
          <label htmlFor="env-color">Colour</label>
          <input id="env-color" type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          {errors.color && <span className="field-error">{errors.color}</span>}
          <label htmlFor="env-kind">Connect via</label>
          <select
            id="env-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as Kind)}
            disabled={existing?.settings.kind === 'local'}
          >
            <option value="ssh">SSH (Tether installs its server on the host)</option>
            <option value="ws">WebSocket (exec-server URL)</option>
            <option value="command">Command (stdio, e.g. over SSH)</option>
            {existing?.settings.kind === 'local' && <option value="local">This machine</option>}
          </select>
          {kind === 'ws' && (
            <>
              <label htmlFor="env-url">URL</label>
              <input
                id="env-url"
                className="mono"
                placeholder="ws://host:port"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                aria-invalid={!!errors.target}
                aria-errormessage="env-target-error"
              />
              {errors.target && (
                <span id="env-target-error" className="field-error">
                  {errors.target}
                </span>
              )}
              <UnencryptedNote settings={{ kind: 'ws', url: url.trim() }} />
              {pin !== null && isWss() && (
                <p className="hint">
                  Pinned certificate (SHA-256): <span className="mono">{pin}</span>{' '}
                  <button type="button" onClick={() => setPin(null)}>
                    Forget pin
                  </button>
                </p>
              )}
              <label htmlFor="env-token">Token</label>
              <input
                id="env-token"
                type="password"
                placeholder={tokenPlaceholder}
                value={token}
                onChange={(e) => setToken(e.target.value)}
                aria-invalid={!!errors.token}
                aria-describedby="env-token-storage"
              />
              {errors.token && <span className="field-error">{errors.token}</span>}
              {tokenStorage && (
                <span
                  id="env-token-storage"
                  className={tokenStorage.encrypted ? 'field-note' : 'field-warning'}
                >
                  {tokenStorage.encrypted ? '' : '⚠ '}Saved tokens are {tokenStorage.description}.
                </span>
              )}
            </>
          )}
          {kind === 'ssh' && (
            <SshFields
              fields={ssh}
              errors={sshErrors}
              onChange={setSsh}
              onPick={(host) => {
                if (!name.trim()) setName(host.alias);
              }}
            />
          )}
          {kind === 'command' && (
            <>
              <label htmlFor="env-command">Command</label>
              <input
                id="env-command"
                className="mono"
                placeholder="ssh host tether exec-server --listen stdio"
                value={commandLine}
                onChange={(e) => setCommandLine(e.target.value)}
                aria-invalid={!!errors.target}
              />
              {errors.target && <span className="field-error">{errors.target}</span>}
            </>
          )}
        </div>
        {kind === 'ssh' && sshTest && <SshConnectStages progress={sshTest} />}
        {test && (
          <p role="status" className={test.ok ? 'status-connected' : 'error'}>
            {test.ok
              ? `Connection works (${formatMs(test.rttMs)}).`
              : test.ssh?.failure
                ? 'The test failed; the stages above say where.'
                : `Failed at ${STAGE_TEXT[test.stage]}: ${test.message}`}
          </p>
        )}
        {prompt && (
          <TrustCertificatePrompt
            certificate={prompt.certificate}
            onTrust={(fingerprint) => void onTrust(fingerprint)}
            onReject={() => setPrompt(null)}
          />
        )}
        {testError && (
          <p role="status" className="error">
            {testError}
          </p>
        )}
        <ErrorLine message={submitError} />
        <div className="modal-actions">
          {kind !== 'local' && (
            <button type="button" onClick={onTest} disabled={testing}>
              {testing ? 'Testing…' : 'Test connection'}
            </button>
          )}
          <span className="spacer" />
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {existing ? 'Save' : 'Add'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** How the host keeps tokens, so the token field never implies encryption that is not there. */
function useTokenStorage(): TokenStorageView | null {
  const [storage, setStorage] = useState<TokenStorageView | null>(null);
  useEffect(() => {
    let live = true;
    invoke('app.tokenStorage', {}).then(
      (view) => live && setStorage(view),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return storage;
}
