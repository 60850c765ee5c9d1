// A small live terminal in the Settings dialog: a real xterm drawing sample output (a prompt, the
// sixteen colours plain and bold, box drawing, CJK) with the settings being edited, so every change
// shows before it is saved.
import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import type { Settings } from '../../shared/ipc';
import { terminalOptions } from './xterm/terminal-options';

const ESC = '\x1b[';
const COLOURS = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const SAMPLE = [
  `${ESC}1;32mdev@build-box${ESC}0m:${ESC}1;34m~/tether${ESC}0m$ ls --color`,
  `${ESC}34msrc${ESC}0m  ${ESC}32mbuild.sh${ESC}0m  ${ESC}36mlatest${ESC}0m  README.md  ${ESC}31merror.log${ESC}0m`,
  // Black is left out: programs paint backgrounds with it, and dark schemes need it only at 3:1.
  COLOURS.map((name, i) => `${ESC}${31 + i}m${name}${ESC}0m`).join(' '),
  COLOURS.map((name, i) => `${ESC}1;${31 + i}mbold-${name}${ESC}0m`).join(' '),
  '┌──────┬──────┐ 漢字 かな 한글',
  '└──────┴──────┘ ✓ ✗ → ←',
  `${ESC}1;32mdev@build-box${ESC}0m:${ESC}1;34m~/tether${ESC}0m$ `,
].join('\r\n');
const PREVIEW_ROWS = 7;
const PREVIEW_COLS = 80;

export function TerminalPreview({ settings }: { settings: Settings }) {
  const frameRef = useRef<HTMLDivElement>(null);
  const mountRef = useRef<HTMLDivElement>(null);
  const terminalRef = useRef<Terminal | null>(null);

  useEffect(() => {
    const mount = mountRef.current;
    if (!mount) return;
    const terminal = new Terminal({
      rows: PREVIEW_ROWS,
      cols: PREVIEW_COLS,
      disableStdin: true,
      scrollback: 0,
    });
    // A picture, not a terminal to type into: keep xterm's input out of the tab order.
    mount.inert = true;
    terminal.open(mount);
    terminal.write(SAMPLE);
    terminalRef.current = terminal;
    return () => {
      terminal.dispose();
      terminalRef.current = null;
    };
  }, []);

  useEffect(() => {
    const terminal = terminalRef.current;
    if (!terminal) return;
    const { scrollback: _kept, ...look } = terminalOptions(settings);
    // The preview is never focused; show the cursor as a focused pane draws it.
    Object.assign(terminal.options, look, { cursorInactiveStyle: look.cursorStyle });
    if (frameRef.current) frameRef.current.style.backgroundColor = look.theme.background ?? '';
  }, [settings]);

  return (
    <div
      className="terminal-preview"
      ref={frameRef}
      role="group"
      aria-label="Preview of a terminal with these settings"
    >
      <div ref={mountRef} />
    </div>
  );
}
