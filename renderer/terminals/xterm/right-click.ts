// What a right click in a terminal does, by the `rightClick` setting. The menu stays reachable
// whatever the setting: Shift+right click, the menu key and Shift+F10 always open it.
import type { Settings } from '../../../shared/ipc';

export function rightClickAction(
  setting: Settings['rightClick'],
  event: { button: number; shiftKey: boolean },
): 'menu' | 'paste' {
  // A keyboard-opened context menu reports button 0; only a real right click may paste.
  const plainRightClick = event.button === 2 && !event.shiftKey;
  return setting === 'paste' && plainRightClick ? 'paste' : 'menu';
}
