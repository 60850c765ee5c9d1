// The custom colour scheme's editor: every colour as a picker and a #rrggbb field (validated as
// typed), a warning beside any text colour under 4.5:1 on the background, and "Start from" to copy
// a built-in scheme.
import type { SchemeColours } from '../../shared/ipc';
import { ANSI_COLOUR_NAMES, HexColour } from '../../shared/ipc';
import { contrastRatio } from '../terminals/xterm/contrast';
import { BUILT_IN_SCHEMES } from '../terminals/xterm/terminal-schemes';

export type SchemeText = Record<keyof SchemeColours, string>;

const READABLE = 4.5;
const COLOUR_KEYS = [
  'background',
  'foreground',
  'cursor',
  'selectionBackground',
  ...ANSI_COLOUR_NAMES,
] as const;
const LABELS: Record<keyof SchemeColours, string> = {
  background: 'Background',
  foreground: 'Text',
  cursor: 'Cursor',
  selectionBackground: 'Selection',
  black: 'Black',
  red: 'Red',
  green: 'Green',
  yellow: 'Yellow',
  blue: 'Blue',
  magenta: 'Magenta',
  cyan: 'Cyan',
  white: 'White',
  brightBlack: 'Bright black',
  brightRed: 'Bright red',
  brightGreen: 'Bright green',
  brightYellow: 'Bright yellow',
  brightBlue: 'Bright blue',
  brightMagenta: 'Bright magenta',
  brightCyan: 'Bright cyan',
  brightWhite: 'Bright white',
};

/** `abc123` and ` #ABC123 ` are read as `#abc123`; anything else stays as typed (and is flagged). */
function normalise(text: string): string {
  const trimmed = text.trim().toLowerCase();
  return /^[0-9a-f]{6}$/.test(trimmed) ? `#${trimmed}` : trimmed;
}

export function schemeText(colours: SchemeColours): SchemeText {
  return { ...colours };
}

/** The colours when every field is a valid #rrggbb, else null. */
export function parseSchemeText(text: SchemeText): SchemeColours | null {
  const entries = COLOUR_KEYS.map((key) => [key, normalise(text[key])] as const);
  if (entries.some(([, value]) => !HexColour.safeParse(value).success)) return null;
  return Object.fromEntries(entries) as SchemeColours;
}

export function SchemeEditor({ text, onChange }: { text: SchemeText; onChange: (text: SchemeText) => void }) {
  const background = normalise(text.background);
  const backgroundValid = HexColour.safeParse(background).success;
  return (
    <fieldset className="scheme-editor">
      <legend>Custom scheme</legend>
      <label className="scheme-start">
        Start from{' '}
        <select
          value=""
          onChange={(e) => {
            const scheme = BUILT_IN_SCHEMES.find((s) => s.id === e.target.value);
            if (scheme) onChange(schemeText(scheme.colours));
          }}
        >
          <option value="">choose a scheme…</option>
          {BUILT_IN_SCHEMES.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <div className="scheme-colours">
        {COLOUR_KEYS.map((key) => {
          const value = normalise(text[key]);
          const valid = HexColour.safeParse(value).success;
          const isText = key === 'foreground' || (ANSI_COLOUR_NAMES as readonly string[]).includes(key);
          const ratio = valid && backgroundValid && isText ? contrastRatio(value, background) : null;
          const id = `scheme-${key}`;
          return (
            <div key={key} className="scheme-colour">
              <input
                type="color"
                aria-label={`${LABELS[key]} colour picker`}
                value={valid ? value : '#000000'}
                onChange={(e) => onChange({ ...text, [key]: e.target.value })}
              />
              <label htmlFor={id}>{LABELS[key]}</label>
              <input
                id={id}
                className="hex"
                spellCheck={false}
                value={text[key]}
                aria-invalid={!valid}
                aria-describedby={`${id}-note`}
                onChange={(e) => onChange({ ...text, [key]: e.target.value })}
              />
              <span id={`${id}-note`} className={valid ? 'muted' : 'field-error'}>
                {!valid
                  ? 'Use #rrggbb, e.g. #1e90ff'
                  : ratio !== null && ratio < READABLE
                    ? `low contrast ${ratio.toFixed(1)}:1`
                    : ''}
              </span>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
