// Adds a `Host` entry to the user's ssh config, which ssh reads (ssh-hosts.ts says which file):
// only ever appended, never rewriting a byte of what is there; ~/.ssh (0700) and the file (0600)
// created when missing; an alias the config already names is refused rather than shadowed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sshHostEntry, type SshHostEntry, type SshHostEntryDraft } from '../../../shared/ssh-host-entry';
import { AppError } from '../app-error';
import { configAliases } from './ssh-hosts';

/** The checked entry and where it would go, or an AppError saying what is wrong with the draft. */
export async function planSshHostEntry(file: string, draft: SshHostEntryDraft): Promise<SshHostEntry> {
  const checked = sshHostEntry(draft);
  if (!checked.ok) throw new AppError('invalidInput', checked.message);
  // Includes count too: ssh takes the first entry that names a host, so a second one would be ignored.
  if ((await configAliases(file)).includes(checked.value.alias)) {
    throw new AppError(
      'conflict',
      `${file} already has a Host "${checked.value.alias}"; pick another alias, or choose that host from the list.`,
    );
  }
  return checked.value;
}

/** Appends the draft's entry to `file` (after a blank line when the file has text). */
export async function appendSshHostEntry(file: string, draft: SshHostEntryDraft): Promise<SshHostEntry> {
  const entry = await planSshHostEntry(file, draft);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // O_APPEND (a+ so the last byte can be read): what is there stays as it is, even if the file changes meanwhile.
  const handle = await fs.open(file, 'a+', 0o600);
  try {
    const { size } = await handle.stat();
    const separator = size === 0 ? '' : (await endsWithNewline(handle, size)) ? '\n' : '\n\n';
    await handle.appendFile(`${separator}${entry.text}`);
  } finally {
    await handle.close();
  }
  return entry;
}

async function endsWithNewline(handle: fs.FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}
