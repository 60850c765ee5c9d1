// Asks before the app quits while processes that end with it are running (the Local environment's;
// remote ones are saved and come back) or editors hold unsaved changes. Asked once per quit: closing
// the last window and the quit that follows it share the answer.
import { dialog, type BrowserWindow } from 'electron';
import type { QuitWarning } from '../app/environments/quit-warning';

/** The dialog's buttons, in order: the answer is an index into them. */
const BUTTONS = ['Quit', 'Cancel'];
const QUIT = 0;

export interface QuitConfirmation {
  /** True when quitting may go ahead (nothing would end, or the user said Quit). */
  mayQuit(window: BrowserWindow | null): boolean;
}

export function quitConfirmation(warning: () => QuitWarning | null): QuitConfirmation {
  let confirmed = false;
  return {
    mayQuit(window) {
      if (confirmed) return true;
      const found = warning();
      if (found) {
        const options = {
          type: 'warning' as const,
          buttons: BUTTONS,
          defaultId: QUIT,
          cancelId: BUTTONS.indexOf('Cancel'),
          message: found.message,
          detail: found.detail,
        };
        const choice = window
          ? dialog.showMessageBoxSync(window, options)
          : dialog.showMessageBoxSync(options);
        if (choice !== QUIT) return false;
      }
      confirmed = true;
      return true;
    },
  };
}
