// Every built-in colour scheme is readable: each ANSI colour (bold text is drawn in the bright
// ones) against the scheme's background at WCAG AA, the foreground too, and the selection and
// cursor visible; plus which scheme a pane uses for the settings and the app's theme.
import { describe, expect, it } from 'vitest';
import { ANSI_COLOUR_NAMES, BUILT_IN_SCHEME_IDS } from '../../../shared/ipc';
import { DEFAULT_SETTINGS } from '../../settings/settings-store';
import { activeSchemeId, BUILT_IN_SCHEMES, schemeColours, startingCustomScheme } from './terminal-schemes';
import { FALLBACK_FONT_FAMILY, fontFamilyStack, terminalOptions } from './terminal-options';
import { contrastRatio } from './contrast';

/** WCAG AA for normal text. */
const TEXT_CONTRAST = 4.5;
/** WCAG AA for large text and UI parts: the floor for dark schemes' "black" and for the cursor. */
const NON_TEXT_CONTRAST = 3;
/** High-contrast schemes promise AAA for every colour. */
const AAA_CONTRAST = 7;

describe('the built-in colour schemes', () => {
  it('cover every built-in id, light and dark', () => {
    expect(BUILT_IN_SCHEMES.map((s) => s.id).sort()).toEqual([...BUILT_IN_SCHEME_IDS].sort());
    expect(new Set(BUILT_IN_SCHEMES.map((s) => s.tone))).toEqual(new Set(['light', 'dark']));
  });

  describe.each(BUILT_IN_SCHEMES.map((s) => [s.label, s] as const))('%s', (_label, scheme) => {
    const { colours } = scheme;
    const highContrast = scheme.id.startsWith('high-contrast');

    it.each(ANSI_COLOUR_NAMES)('draws %s readable on its background', (name) => {
      const ratio = contrastRatio(colours[name], colours.background);
      // Dark schemes' black is what programs paint backgrounds with; as text it needs only 3:1.
      const needed = highContrast
        ? AAA_CONTRAST
        : name === 'black' && scheme.tone === 'dark'
          ? NON_TEXT_CONTRAST
          : TEXT_CONTRAST;
      expect(
        ratio,
        `${name} ${colours[name]} on ${colours.background}: ${ratio.toFixed(2)}`,
      ).toBeGreaterThanOrEqual(needed);
    });

    it('draws its foreground readable on the background and on the selection', () => {
      const needed = highContrast ? AAA_CONTRAST : TEXT_CONTRAST;
      expect(contrastRatio(colours.foreground, colours.background)).toBeGreaterThanOrEqual(needed);
      expect(contrastRatio(colours.foreground, colours.selectionBackground)).toBeGreaterThanOrEqual(
        TEXT_CONTRAST,
      );
    });

    it('shows its cursor against the background', () => {
      expect(contrastRatio(colours.cursor, colours.background)).toBeGreaterThanOrEqual(NON_TEXT_CONTRAST);
    });

    it('is as light or dark as it says', () => {
      const onWhite = contrastRatio(colours.background, '#ffffff');
      expect(scheme.tone === 'light' ? onWhite < 1.5 : onWhite > 10).toBe(true);
    });
  });
});

describe('which scheme a pane uses', () => {
  it('follows the app theme with the light and dark choices by default', () => {
    const settings = { ...DEFAULT_SETTINGS, lightScheme: 'solarized-light', darkScheme: 'one-dark' } as const;
    expect(activeSchemeId(settings, 'light')).toBe('solarized-light');
    expect(activeSchemeId(settings, 'dark')).toBe('one-dark');
  });

  it('keeps a fixed scheme whatever the theme', () => {
    const settings = { ...DEFAULT_SETTINGS, scheme: 'high-contrast-dark' } as const;
    expect(activeSchemeId(settings, 'light')).toBe('high-contrast-dark');
  });

  it('starts the custom scheme from the theme-matching Tether scheme until it is edited', () => {
    expect(schemeColours('custom', DEFAULT_SETTINGS, 'dark')).toEqual(startingCustomScheme('dark'));
    const custom = { ...startingCustomScheme('light'), red: '#123456' };
    expect(schemeColours('custom', { ...DEFAULT_SETTINGS, customScheme: custom }, 'dark').red).toBe(
      '#123456',
    );
  });
});

describe('the terminal options', () => {
  it('put the named faces before a fallback stack with CJK, box drawing and emoji faces', () => {
    const faces = FALLBACK_FONT_FAMILY.split(',').map((f) => f.trim().replace(/"/g, ''));
    expect(faces.at(-1)).toBe('monospace');
    expect(faces[0]).toBe('DejaVu Sans Mono');
    expect(faces.some((f) => /CJK|Han|WenQuanYi|YaHei|Hiragino/.test(f))).toBe(true);
    expect(faces.some((f) => /Emoji/.test(f))).toBe(true);
    expect(fontFamilyStack(' Fira Code , JetBrains Mono')).toBe(
      `"Fira Code", "JetBrains Mono", ${FALLBACK_FONT_FAMILY}`,
    );
    expect(fontFamilyStack('')).toBe(FALLBACK_FONT_FAMILY);
  });

  it('carry every terminal setting', () => {
    const options = terminalOptions(
      {
        ...DEFAULT_SETTINGS,
        fontSize: 17,
        lineHeight: 1.4,
        letterSpacing: 2,
        cursorStyle: 'bar',
        cursorBlink: false,
        rightClick: 'select-word',
        scheme: 'solarized-dark',
        scrollback: 1234,
      },
      'light',
    );
    expect(options).toMatchObject({
      fontSize: 17,
      lineHeight: 1.4,
      letterSpacing: 2,
      cursorStyle: 'bar',
      cursorBlink: false,
      rightClickSelectsWord: true,
      scrollback: 1234,
      theme: { background: '#002b36', cursorAccent: '#002b36' },
    });
  });
});
