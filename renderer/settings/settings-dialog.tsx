// Settings: the app theme; the terminals' font, spacing, cursor and colour scheme (built-in, or a
// custom one edited here) with a live preview; bell, scrollback, copy-on-select, right click, typing
// prediction; and the hosts whose links open without asking. Save applies everything to every open terminal at once.
import { useMemo, useState } from 'react';
import type { SchemeId, Settings } from '../../shared/ipc';
import { Settings as SettingsSchema } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { hostKind } from '../ipc/host-kind';
import { saveSettings } from './settings-actions';
import { useSettings } from './settings-store';
import { requestNotificationPermission } from '../terminals/xterm/bell';
import {
  activeSchemeId,
  BUILT_IN_SCHEMES,
  resolvedTheme,
  schemeColours,
} from '../terminals/xterm/terminal-schemes';
import { Modal } from '../ui/modal';
import { ErrorLine } from '../ui/error-line';
import { Field, fieldErrorId } from '../ui/field';
import { parseSchemeText, SchemeEditor, schemeText, type SchemeText } from './scheme-editor';
import { TerminalPreview } from '../terminals/terminal-preview';

type NumberField = 'fontSize' | 'lineHeight' | 'letterSpacing' | 'scrollback';

/** A human message for a number outside the contract's bounds (the bounds are read from it). */
function numberError(settings: Settings, field: NumberField, unit: string): string | null {
  const schema = SettingsSchema.shape[field];
  if (schema.safeParse(settings[field]).success) return null;
  const whole = field === 'lineHeight' ? '' : 'a whole number ';
  return `Use ${whole}from ${schema.minValue} to ${schema.maxValue}${unit}.`;
}

function fieldErrors(settings: Settings): Partial<Record<keyof Settings, string>> {
  const errors: Partial<Record<keyof Settings, string>> = {};
  const check = (field: NumberField, unit: string) => {
    const message = numberError(settings, field, unit);
    if (message) errors[field] = message;
  };
  check('fontSize', ' px');
  check('lineHeight', ' (times the font height)');
  check('letterSpacing', ' px');
  check('scrollback', ' lines');
  const font = SettingsSchema.shape.fontFamily.safeParse(settings.fontFamily);
  if (!font.success)
    errors.fontFamily =
      'Font names have letters, digits, spaces, dots and dashes; separate them with commas.';
  return errors;
}

function SchemeOptions({ tone }: { tone?: 'light' | 'dark' }) {
  const groups = tone ? [tone, tone === 'light' ? 'dark' : 'light'] : (['dark', 'light'] as const);
  return (
    <>
      {groups.map((group) => (
        <optgroup key={group} label={group === 'dark' ? 'Dark' : 'Light'}>
          {BUILT_IN_SCHEMES.filter((s) => s.tone === group).map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </optgroup>
      ))}
      <option value="custom">Custom</option>
    </>
  );
}

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const current = useSettings((s) => s.settings);
  const [draft, setDraft] = useState(current);
  const [customText, setCustomText] = useState<SchemeText>(() =>
    schemeText(
      current.customScheme ??
        schemeColours(
          activeSchemeId(current, resolvedTheme(current.theme)),
          current,
          resolvedTheme(current.theme),
        ),
    ),
  );
  const [error, setError] = useState<string | null>(null);
  const [bellNote, setBellNote] = useState<string | null>(null);
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const usesCustom = [draft.scheme, draft.lightScheme, draft.darkScheme].includes('custom');
  const customColours = parseSchemeText(customText);
  const errors = fieldErrors(draft);
  const invalid = Object.keys(errors).length > 0 || (usesCustom && !customColours);
  // What is saved: the custom colours once someone uses (or had) a custom scheme.
  const result: Settings = useMemo(
    () => ({
      ...draft,
      customScheme: usesCustom || draft.customScheme ? (customColours ?? draft.customScheme) : null,
    }),
    [draft, usesCustom, customColours],
  );

  const chooseBell = async (bell: Settings['bell']) => {
    set('bell', bell);
    setBellNote(null);
    // A browser asks once; the desktop app may always notify.
    if (bell === 'notify' && hostKind() !== 'electron' && !(await requestNotificationPermission()))
      setBellNote(
        'This browser does not allow notifications for Tether, so the bell flashes the pane instead.',
      );
  };

  const numberInput = (id: string, key: NumberField, step: number) => (
    <input
      id={id}
      type="number"
      step={step}
      min={SettingsSchema.shape[key].minValue ?? undefined}
      max={SettingsSchema.shape[key].maxValue ?? undefined}
      value={Number.isNaN(draft[key]) ? '' : draft[key]}
      aria-invalid={!!errors[key]}
      aria-describedby={errors[key] ? fieldErrorId(id) : undefined}
      onChange={(e) => set(key, e.target.value === '' ? Number.NaN : Number(e.target.value))}
    />
  );

  return (
    <Modal title="Settings" onClose={onClose}>
      <div className="settings-dialog">
        <fieldset>
          <legend>Appearance</legend>
          <div className="form-grid">
            <Field id="set-theme" label="App theme" error={errors.theme}>
              <select
                id="set-theme"
                value={draft.theme}
                onChange={(e) => set('theme', e.target.value as Settings['theme'])}
              >
                <option value="system">Follow the system</option>
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </select>
            </Field>
            <Field id="set-scheme" label="Terminal colours" error={errors.scheme}>
              <select
                id="set-scheme"
                value={draft.scheme}
                onChange={(e) => set('scheme', e.target.value as Settings['scheme'])}
              >
                <option value="follow-theme">Follow the app theme</option>
                <SchemeOptions />
              </select>
            </Field>
            {draft.scheme === 'follow-theme' && (
              <>
                <Field id="set-light-scheme" label="With the light theme" error={errors.lightScheme}>
                  <select
                    id="set-light-scheme"
                    value={draft.lightScheme}
                    onChange={(e) => set('lightScheme', e.target.value as SchemeId)}
                  >
                    <SchemeOptions tone="light" />
                  </select>
                </Field>
                <Field id="set-dark-scheme" label="With the dark theme" error={errors.darkScheme}>
                  <select
                    id="set-dark-scheme"
                    value={draft.darkScheme}
                    onChange={(e) => set('darkScheme', e.target.value as SchemeId)}
                  >
                    <SchemeOptions tone="dark" />
                  </select>
                </Field>
              </>
            )}
          </div>
          {usesCustom && <SchemeEditor text={customText} onChange={setCustomText} />}
        </fieldset>
        <fieldset>
          <legend>Terminal text</legend>
          <div className="form-grid">
            <Field id="set-font-family" label="Font family" error={errors.fontFamily}>
              <input
                id="set-font-family"
                placeholder="e.g. JetBrains Mono, Fira Code"
                value={draft.fontFamily}
                aria-invalid={!!errors.fontFamily}
                aria-describedby="set-font-family-note"
                onChange={(e) => set('fontFamily', e.target.value)}
              />
            </Field>
            <span id="set-font-family-note" className="muted field-note">
              Tried first; built-in fallbacks keep box drawing, CJK and emoji readable.
            </span>
            <Field id="set-font" label="Font size" error={errors.fontSize}>
              {numberInput('set-font', 'fontSize', 1)}
            </Field>
            <Field id="set-line-height" label="Line height" error={errors.lineHeight}>
              {numberInput('set-line-height', 'lineHeight', 0.05)}
            </Field>
            <Field id="set-letter-spacing" label="Letter spacing (px)" error={errors.letterSpacing}>
              {numberInput('set-letter-spacing', 'letterSpacing', 1)}
            </Field>
            <Field id="set-cursor-style" label="Cursor" error={errors.cursorStyle}>
              <select
                id="set-cursor-style"
                value={draft.cursorStyle}
                onChange={(e) => set('cursorStyle', e.target.value as Settings['cursorStyle'])}
              >
                <option value="block">Block</option>
                <option value="bar">Bar</option>
                <option value="underline">Underline</option>
              </select>
            </Field>
            <Field id="set-cursor-blink" label="Blinking cursor" error={errors.cursorBlink}>
              <input
                id="set-cursor-blink"
                type="checkbox"
                checked={draft.cursorBlink}
                onChange={(e) => set('cursorBlink', e.target.checked)}
              />
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>Terminal behaviour</legend>
          <div className="form-grid">
            <Field id="set-bell" label="Bell" error={errors.bell}>
              <select
                id="set-bell"
                value={draft.bell}
                onChange={(e) => void chooseBell(e.target.value as Settings['bell'])}
              >
                <option value="off">Off</option>
                <option value="visual">Flash the pane</option>
                <option value="sound">Sound</option>
                <option value="notify">Notify when Tether is in the background</option>
              </select>
            </Field>
            {bellNote && <span className="muted field-note">{bellNote}</span>}
            <Field id="set-right-click" label="Right click" error={errors.rightClick}>
              <select
                id="set-right-click"
                value={draft.rightClick}
                onChange={(e) => set('rightClick', e.target.value as Settings['rightClick'])}
              >
                <option value="menu">Opens the menu</option>
                <option value="paste">Pastes (Shift+right click: menu)</option>
                <option value="select-word">Selects the word, then the menu</option>
              </select>
            </Field>
            <Field id="set-predict" label="Predict typing" error={errors.predictiveEcho}>
              <select
                id="set-predict"
                value={draft.predictiveEcho}
                onChange={(e) => set('predictiveEcho', e.target.value as Settings['predictiveEcho'])}
              >
                <option value="auto">On slow links (over 30 ms)</option>
                <option value="always">Always</option>
                <option value="never">Never</option>
              </select>
            </Field>
            <Field id="set-copy" label="Copy on select" error={errors.copyOnSelect}>
              <input
                id="set-copy"
                type="checkbox"
                checked={draft.copyOnSelect}
                onChange={(e) => set('copyOnSelect', e.target.checked)}
              />
            </Field>
            <Field id="set-shell-integration" label="Shell integration" error={errors.shellIntegration}>
              <input
                id="set-shell-integration"
                type="checkbox"
                checked={draft.shellIntegration}
                onChange={(e) => set('shellIntegration', e.target.checked)}
              />
            </Field>
            <Field id="set-scrollback" label="Scrollback lines" error={errors.scrollback}>
              {numberInput('set-scrollback', 'scrollback', 1000)}
            </Field>
          </div>
        </fieldset>
        {/* Last in the DOM (the dialog focuses its first field, not xterm's), first on screen (CSS). */}
        <div className="settings-preview">
          <TerminalPreview settings={result} />
        </div>
        <h3>Links opened without asking</h3>
        {draft.trustedLinkHosts.length === 0 ? (
          <p className="muted">None: Tether asks before opening any link a program prints.</p>
        ) : (
          <ul className="trusted-hosts">
            {draft.trustedLinkHosts.map((host) => (
              <li key={host}>
                <span>{host}</span>
                <button
                  aria-label={`Ask again for ${host}`}
                  onClick={() =>
                    set(
                      'trustedLinkHosts',
                      draft.trustedLinkHosts.filter((h) => h !== host),
                    )
                  }
                >
                  Ask again
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={onClose}>Cancel</button>
        <button
          className="primary"
          disabled={invalid}
          title={invalid ? 'Fix the fields marked in red first' : undefined}
          onClick={async () => {
            try {
              await saveSettings(result);
              onClose();
            } catch (e) {
              setError(errorMessage(e));
            }
          }}
        >
          Save
        </button>
      </div>
    </Modal>
  );
}
