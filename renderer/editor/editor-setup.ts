// How every editor document is set up: CodeMirror's basic setup (line numbers, history, search,
// bracket matching…), a theme and highlight style drawn from the app's CSS palette so the editor
// follows light and dark, read-only for previews, and the language for the file name, loaded lazily.
// The one module that imports CodeMirror itself: the app loads it (and CodeMirror) on first use.
import { basicSetup, EditorView } from 'codemirror';
import { Compartment, EditorState, type Extension, type TransactionSpec } from '@codemirror/state';
import {
  HighlightStyle,
  LanguageDescription,
  syntaxHighlighting,
  type LanguageSupport,
} from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { tags as t } from '@lezer/highlight';

/** Where a document's language goes once it has loaded. */
const languageSlot = new Compartment();

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--text)', backgroundColor: 'var(--term-bg)', fontSize: '12px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.45' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--panel-2)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--editor-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--editor-active-line)', color: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--editor-selection)',
  },
  '.cm-searchMatch': { backgroundColor: 'var(--editor-match)', outline: '1px solid var(--warn)' },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--text)', borderColor: 'var(--border)' },
  '.cm-panels input, .cm-panels button': { color: 'var(--text)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)' },
});

// Colours are CSS variables (editor.css), each light-dark(): one style for both schemes.
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.modifier, t.controlKeyword], color: 'var(--syntax-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--syntax-string)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--syntax-number)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--syntax-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--syntax-function)' },
  { tag: [t.typeName, t.className, t.namespace, t.tagName], color: 'var(--syntax-type)' },
  { tag: [t.propertyName, t.attributeName], color: 'var(--syntax-property)' },
  { tag: [t.heading], color: 'var(--syntax-keyword)', fontWeight: 'bold' },
  { tag: [t.link, t.url], color: 'var(--accent)', textDecoration: 'underline' },
  { tag: t.invalid, color: 'var(--bad)' },
]);

export function createDocument(text: string, options: { readOnly: boolean }): EditorState {
  return EditorState.create({
    doc: text,
    extensions: [
      basicSetup,
      theme,
      syntaxHighlighting(highlight),
      languageSlot.of([]),
      EditorState.readOnly.of(options.readOnly),
      EditorView.contentAttributes.of({ 'aria-label': 'File contents' }),
    ] satisfies Extension[],
  });
}

/**
 * A view of `state` in `parent`; every change it makes is handed to `changed`. It opens scrolled to
 * the cursor, which a jump to a line (lineSelection) may have moved before the view existed.
 */
export function mountView(
  state: EditorState,
  parent: HTMLElement,
  changed: (state: EditorState) => void,
): EditorView {
  return new EditorView({
    state,
    parent,
    scrollTo: EditorView.scrollIntoView(state.selection.main.head, { y: 'center' }),
    dispatchTransactions: (transactions, view) => {
      view.update(transactions);
      changed(view.state);
    },
  });
}

/** Puts the cursor at the start of `line` (from 1, kept within the document) and scrolls to it. */
export function lineSelection(state: EditorState, line: number): TransactionSpec {
  const target = state.doc.line(Math.min(Math.max(1, Math.floor(line)), state.doc.lines));
  return {
    selection: { anchor: target.from },
    effects: EditorView.scrollIntoView(target.from, { y: 'center' }),
  };
}

/** Reconfigures a document's language slot (for change()). */
export function languageChange(language: LanguageSupport) {
  return { effects: languageSlot.reconfigure(language) };
}

/** The language CodeMirror knows for this file name (by extension or exact name), or null. */
export async function languageFor(fileName: string): Promise<LanguageSupport | null> {
  const description = LanguageDescription.matchFilename(languages, fileName);
  return description ? description.load() : null;
}
