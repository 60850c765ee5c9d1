// Add or edit an environment: name, colour, how to reach it (an SSH host, a WebSocket URL + token,
// or a command whose stdio speaks the protocol; each kind's fields come from kind-forms.tsx), its
// terminal profile (the same section for every kind),
// validated before saving, with a "test connection" that names the stage that failed (for SSH, its
// stages live). A wss:// certificate that does not verify is shown and pinned only if the user
// trusts it (on test, and before adding or saving an unpinned wss:// environment).
import { useState, type FormEvent } from 'react';
import { EnvironmentDraft, type EnvironmentView } from '../../shared/ipc';
import { addEnvironment, updateEnvironment } from './environment-actions';
import { errorMessage } from '../../shared/error-message';
import { useEnvironments } from './environments-store';
import { Modal } from '../ui/modal';
import { Field } from '../ui/field';
import { TrustCertificatePrompt } from './trust-certificate-prompt';
import { ErrorLine } from '../ui/error-line';
import { freeEnvironmentColour } from '../../shared/environment-colours';
import type { FieldErrors } from './kinds/kind-form';
import { bindKindForm, KIND_FORMS, kindFieldsFrom, KINDS, type Kind } from './kinds/kind-forms';
import { useCertificateTrust } from './use-certificate-trust';
import { testResultText, useConnectionTest } from './use-connection-test';
import {
  checkProfileFields,
  profileFieldsFrom,
  TerminalProfileFields,
  type ProfileErrors,
} from './terminal-profile-fields';

const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);

export function EnvironmentDialog({
  existing,
  onClose,
}: {
  existing?: EnvironmentView;
  onClose: () => void;
}) {
  const [name, setName] = useState(existing?.name ?? '');
  const [color, setColor] = useState(
    () =>
      existing?.color ??
      freeEnvironmentColour(Object.values(useEnvironments.getState().byId).map((e) => e.color.toLowerCase())),
  );
  // SSH is the road most users take (Tether installs its server there), so a new one starts on it.
  const [kind, setKind] = useState<Kind>(existing?.settings.kind ?? 'ssh');
  const [kindFields, setKindFields] = useState(() => kindFieldsFrom(existing?.settings));
  const [profileFields, setProfileFields] = useState(() => profileFieldsFrom(existing?.terminalProfile));
  const [profileErrors, setProfileErrors] = useState<ProfileErrors>({});
  // Name and colour; then the kind's fields, as a test checks them and as only a save does.
  const [errors, setErrors] = useState<{ name?: string; color?: string }>({});
  const [targetErrors, setTargetErrors] = useState<FieldErrors>({});
  const [saveErrors, setSaveErrors] = useState<FieldErrors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const test = useConnectionTest();
  const trust = useCertificateTrust(
    existing ? (KIND_FORMS[existing.settings.kind].pinOf?.(existing.settings) ?? null) : null,
  );
  const kindForm = bindKindForm(kind, kindFields, setKindFields);
  const { form } = kindForm;
  const fixedKind = existing !== undefined && !KIND_FORMS[existing.settings.kind].pickable;

  function validate(pinned: string | null = trust.pin): EnvironmentDraft | null {
    const next: typeof errors = {};
    if (!name.trim()) next.name = 'Give the environment a name.';
    if (!/^#[0-9a-fA-F]{6}$/.test(color)) next.color = 'Pick a colour like #3b82f6.';
    const target = kindForm.check();
    const onSave = kindForm.checkSave(existing, pinned);
    setErrors(next);
    setTargetErrors(target);
    setSaveErrors(onSave);
    const profile = checkProfileFields(profileFields);
    setProfileErrors('errors' in profile ? profile.errors : {});
    if (hasErrors(next) || hasErrors(target) || hasErrors(onSave) || 'errors' in profile) return null;
    const token = kindForm.token();
    const parsed = EnvironmentDraft.safeParse({
      name,
      color,
      settings: kindForm.settings(pinned),
      terminalProfile: profile.profile,
      ...(token ? { token } : {}),
    });
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
    // Ask about a certificate that does not verify now, rather than fail after saving.
    if (kindForm.pinnable() && trust.pin === null && trust.askIfRefused(await runTest(null), 'save')) {
      setBusy(false);
      return;
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
  function runTest(pinned: string | null) {
    const settings = kindForm.settings(pinned);
    if (!settings) {
      validate(pinned);
      return Promise.resolve(null);
    }
    const token = kindForm.token();
    const live = form.Stages !== undefined;
    return test.run(
      {
        settings,
        ...(token ? { token } : {}),
        ...(existing ? { id: existing.id } : {}),
        ...(live ? { name: name.trim() || undefined } : {}),
      },
      live,
    );
  }

  async function onTest() {
    // Only what the test needs is checked: a name is not needed to try a connection.
    const target = kindForm.check();
    setTargetErrors(target);
    if (hasErrors(target)) {
      test.clear();
      return;
    }
    trust.askIfRefused(await runTest(trust.pin), 'test');
  }

  async function onTrust(fingerprint: string) {
    if (trust.trust(fingerprint) === 'save') {
      const draft = validate(fingerprint);
      if (draft) await save(draft);
    } else {
      await runTest(fingerprint);
    }
  }

  const Stages = form.Stages;
  return (
    <Modal title={existing ? `Edit ${existing.name}` : 'Add environment'} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <Field id="env-name" label="Name" error={errors.name}>
            <input
              id="env-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={!!errors.name}
            />
          </Field>
          <Field id="env-color" label="Colour" error={errors.color}>
            <input id="env-color" type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          </Field>
          <Field id="env-kind" label="Connect via">
            <select
              id="env-kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as Kind)}
              disabled={fixedKind}
            >
              {KINDS.filter((k) => KIND_FORMS[k].pickable || k === existing?.settings.kind).map((k) => (
                <option key={k} value={k}>
                  {KIND_FORMS[k].label}
                </option>
              ))}
            </select>
          </Field>
          {kindForm.fields({
            errors: { ...targetErrors, ...saveErrors },
            existing,
            pin: trust.pin,
            forgetPin: trust.forget,
            suggestName: (suggested) => {
              if (!name.trim()) setName(suggested);
            },
          })}
        </div>
        <TerminalProfileFields
          fields={profileFields}
          onChange={(patch) => setProfileFields((f) => ({ ...f, ...patch }))}
          errors={profileErrors}
        />
        {Stages && test.stages && <Stages progress={test.stages} />}
        {test.result && (
          <p role="status" className={test.result.ok ? 'status-connected' : 'error'}>
            {testResultText(test.result)}
          </p>
        )}
        {trust.asking && (
          <TrustCertificatePrompt
            certificate={trust.asking}
            onTrust={(fingerprint) => void onTrust(fingerprint)}
            onReject={trust.reject}
          />
        )}
        {test.error && (
          <p role="status" className="error">
            {test.error}
          </p>
        )}
        <ErrorLine message={submitError} />
        <div className="modal-actions">
          {form.testable && (
            <button type="button" onClick={onTest} disabled={test.testing}>
              {test.testing ? 'Testing…' : 'Test connection'}
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
