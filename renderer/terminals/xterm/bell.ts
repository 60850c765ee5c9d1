// What a terminal's bell (BEL, `\a`) does, by the `bell` setting: nothing, a brief flash of the
// pane, a short tone, or an OS notification while the window is not focused (a flash otherwise).
// A program ringing in a loop gets one ring per quiet period, not a flood of flashes or popups.
import type { ProcessKey, Settings } from '../../../shared/ipc';
import { useEnvironments } from '../../environments/environments-store';
import { useProcesses } from '../../processes/processes-store';
import { processKeyString } from '../../processes/process-key';

/** Bells closer together than this ring once (a flash lasts about as long). */
const BELL_QUIET_MS = 200;
/** OS notifications from one terminal at most this often. */
const NOTIFY_QUIET_MS = 10_000;
export const BELL_FLASH_CLASS = 'bell-flash';

let audio: AudioContext | null = null;

/** A 120 ms, 880 Hz tone that fades out, made on the spot (no sound file to ship). */
function beep(): void {
  if (typeof AudioContext !== 'function') return;
  audio ??= new AudioContext();
  const now = audio.currentTime;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 880;
  gain.gain.setValueAtTime(0.15, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
  tone.connect(gain).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.12);
}

function flash(element: HTMLElement): void {
  element.classList.remove(BELL_FLASH_CLASS);
  // Reading the layout restarts the CSS animation when bells follow each other.
  void element.offsetWidth;
  element.classList.add(BELL_FLASH_CLASS);
  element.addEventListener('animationend', () => element.classList.remove(BELL_FLASH_CLASS), { once: true });
}

/** Whether an OS notification can be shown now (Electron grants it; a browser asks once). */
function canNotify(): boolean {
  return typeof Notification === 'function' && Notification.permission === 'granted';
}

function osNotify(key: ProcessKey): void {
  const process = useProcesses.getState().byKey[processKeyString(key)];
  const env = useEnvironments.getState().byId[key.envId];
  const where = [process?.title, env?.name].filter(Boolean).join(' on ');
  new Notification('Tether', { body: `Bell in ${where || 'a terminal'}` });
}

/** One terminal's bell: rings as the current setting says. */
export class TerminalBell {
  private lastRing = -Infinity;
  private lastNotification = -Infinity;

  constructor(
    private readonly key: ProcessKey,
    private readonly element: HTMLElement,
  ) {}

  ring(setting: Settings['bell']): void {
    const now = performance.now();
    if (setting === 'off' || now - this.lastRing < BELL_QUIET_MS) return;
    this.lastRing = now;
    if (setting === 'sound') return beep();
    if (setting === 'notify' && !document.hasFocus() && canNotify()) {
      if (now - this.lastNotification < NOTIFY_QUIET_MS) return;
      this.lastNotification = now;
      return osNotify(this.key);
    }
    flash(this.element);
  }
}

/** Asks the browser for notification permission (the desktop app has it); true when granted. */
export async function requestNotificationPermission(): Promise<boolean> {
  if (typeof Notification !== 'function') return false;
  if (Notification.permission === 'granted') return true;
  return (await Notification.requestPermission()) === 'granted';
}
