// A WebSocket environment in the dialog: the exec-server's URL (with a note when it is plain ws://
// to another machine, and its pinned certificate for wss://) and its token, worded after how the
// host keeps saved tokens. A saved token goes only to the origin it was saved for.
import { useEffect, useState } from 'react';
import type { EnvironmentSettings, EnvironmentView, TokenStorageView } from '../../../shared/ipc';
import { sameTokenOrigin, tokenBinding } from '../../../shared/token-origin';
import { Field, fieldErrorId } from '../../ui/field';
import { tokenStorage } from '../environment-actions';
import type { KindFieldsProps, KindForm } from './kind-form';
import { UnencryptedNote } from '../unencrypted-note';

export interface WsForm {
  url: string;
  /** A token typed now; empty keeps the saved one. */
  token: string;
}

const URL_SHAPE = /^wss?:\/\/[^\s/]+/;

const isWss = (fields: WsForm) => fields.url.trim().startsWith('wss://');

function wsSettings(fields: WsForm, pin: string | null): EnvironmentSettings {
  return { kind: 'ws', url: fields.url.trim(), ...(pin && isWss(fields) ? { tlsFingerprint: pin } : {}) };
}

/** The saved token cannot go to the URL as edited: it belongs to another origin or certificate. */
function tokenLeftBehind(fields: WsForm, existing: EnvironmentView | undefined, pin: string | null): boolean {
  return (
    existing?.hasToken === true &&
    URL_SHAPE.test(fields.url.trim()) &&
    !sameTokenOrigin(existing.settings, wsSettings(fields, pin))
  );
}

export const WS_FORM: KindForm<WsForm> = {
  label: 'WebSocket (exec-server URL)',
  pickable: true,
  testable: true,
  fromSettings: (settings) => ({ url: settings?.kind === 'ws' ? settings.url : '', token: '' }),
  toSettings: wsSettings,
  check: (fields) => (URL_SHAPE.test(fields.url.trim()) ? {} : { url: 'Enter a URL like ws://host:port.' }),
  checkSave: (fields, existing, pin) =>
    existing && tokenLeftBehind(fields, existing, pin) && !fields.token
      ? {
          token: `The saved token belongs to ${tokenBinding(existing.settings) ?? 'the old URL'}; enter the token for this URL.`,
        }
      : {},
  token: (fields) => fields.token || undefined,
  pinnable: isWss,
  pinOf: (settings: EnvironmentSettings) =>
    settings.kind === 'ws' ? (settings.tlsFingerprint ?? null) : null,
  Fields: WsFields,
};

function WsFields({ fields, onChange, errors, existing, pin, forgetPin }: KindFieldsProps<WsForm>) {
  const storage = useTokenStorage();
  const placeholder = tokenLeftBehind(fields, existing, pin)
    ? 'enter it again for the new URL'
    : existing?.hasToken
      ? 'stored (leave empty to keep)'
      : 'optional';
  return (
    <>
      <Field id="env-url" label="URL" error={errors.url}>
        <input
          id="env-url"
          className="mono"
          placeholder="ws://host:port"
          value={fields.url}
          onChange={(e) => onChange({ ...fields, url: e.target.value })}
          aria-invalid={!!errors.url}
          aria-errormessage={fieldErrorId('env-url')}
        />
      </Field>
      <UnencryptedNote settings={{ kind: 'ws', url: fields.url.trim() }} />
      {pin !== null && isWss(fields) && (
        <p className="hint">
          Pinned certificate (SHA-256): <span className="mono">{pin}</span>{' '}
          <button type="button" onClick={forgetPin}>
            Forget pin
          </button>
        </p>
      )}
      <Field id="env-token" label="Token" error={errors.token}>
        <input
          id="env-token"
          type="password"
          placeholder={placeholder}
          value={fields.token}
          onChange={(e) => onChange({ ...fields, token: e.target.value })}
          aria-invalid={!!errors.token}
          aria-describedby="env-token-storage"
        />
      </Field>
      {storage && (
        <span id="env-token-storage" className={storage.encrypted ? 'field-note' : 'field-warning'}>
          {storage.encrypted ? '' : '⚠ '}Saved tokens are {storage.description}.
        </span>
      )}
    </>
  );
}

/** How the host keeps tokens, so the token field never implies encryption that is not there. */
function useTokenStorage(): TokenStorageView | null {
  const [storage, setStorage] = useState<TokenStorageView | null>(null);
  useEffect(() => {
    let live = true;
    tokenStorage().then(
      (view) => live && setStorage(view),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return storage;
}
