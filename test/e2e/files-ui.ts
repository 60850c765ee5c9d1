// File-browser steps shared by the e2e tests: open a folder by typing its path, and drop a file on
// the list the way a desktop drag-and-drop does.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Opens the Files tab at `folder`, which must be empty, and waits until the list shows it. */
export async function openEmptyFolder(page: Page, folder: string, timeoutMs: number): Promise<void> {
  const poll = { timeout: timeoutMs, interval: 100 };
  await page.getByRole('tab', { name: 'Files' }).click();
  const pathBar = page.getByRole('textbox', { name: 'Path' });
  await expect.poll(() => pathBar.inputValue(), poll).not.toBe('');
  await pathBar.fill(folder);
  await pathBar.press('Enter');
  // The typed path shows at once; wait for the folder itself (empty) before dropping into it.
  await expect.poll(() => page.getByText('Empty folder. Drop files here to upload.').count(), poll).toBe(1);
}

/** Drops a file named `name` holding `data` onto the file list (dragover, then drop). */
export async function dropFile(page: Page, name: string, data: Buffer): Promise<void> {
  await page.getByRole('region', { name: 'Files' }).evaluate(
    (target, file) => {
      // Runs in the page; this project's type lib has no DOM, so the few DOM classes are typed here.
      const dom = globalThis as unknown as {
        atob: (base64: string) => string;
        DataTransfer: new () => { items: { add: (file: unknown) => void } };
        DragEvent: new (type: string, init: object) => unknown;
        File: new (parts: Uint8Array[], name: string) => unknown;
      };
      const binary = dom.atob(file.base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const transfer = new dom.DataTransfer();
      transfer.items.add(new dom.File([bytes], file.name));
      const element = target as unknown as { dispatchEvent: (event: unknown) => boolean };
      for (const type of ['dragover', 'drop']) {
        element.dispatchEvent(
          new dom.DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      }
    },
    { name, base64: data.toString('base64') },
  );
}
