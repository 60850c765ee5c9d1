// The editor's open and save through the AppService, against Tether's and codex's ws servers: a
// save is byte-exact (unicode, CRLF and a byte-order mark kept), staged and renamed into place
// (the mode kept on Tether's server), and refuses to write over a file that changed or vanished on
// the server since it was opened until the user picks overwrite, take theirs, a copy or recreate.
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EDITOR_OPEN_LIMIT_BYTES,
  EDITOR_SAVE_CHUNK_BYTES,
  type EditorFile,
  type EditorSaveMode,
  type EditVersion,
} from '../../../shared/ipc';
import { waitFor } from './app-harness';
import { remoteAppRig, type RemoteAppRig } from './remote-app-rig';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe.each(['tether', 'codex'] as const)('the editor on the %s server', (impl) => {
  const rig = remoteAppRig({ impl });
  const at = (name: string): string => path.join(rig.server.home, name);
  const staged = (): string[] => readdirSync(rig.server.home).filter((n) => n.includes('.tether-upload-'));

  it('saves byte-exact: unicode, CRLF and the byte-order mark as they were', async () => {
    const original = Buffer.concat([BOM, Buffer.from('Grüße, 世界 🌍\r\nline two\r\n')]);
    writeFileSync(at('notes.txt'), original);
    if (impl === 'tether') chmodSync(at('notes.txt'), 0o640);
    const opened = textOf(await open(rig, at('notes.txt')));
    expect(opened).toMatchObject({ text: 'Grüße, 世界 🌍\r\nline two\r\n', bom: true });
    expect(opened.version.size).toBe(original.length);

    const mine = Buffer.concat([BOM, Buffer.from(`${opened.text}dritte Zeile ✓\r\n`)]);
    const saved = await save(rig, at('notes.txt'), mine, 'ifUnchanged', opened.version);
    expect(saved).toMatchObject({ kind: 'saved', path: at('notes.txt'), version: { size: mine.length } });
    expect(readFileSync(at('notes.txt')).equals(mine)).toBe(true);
    // Codex has no rename: its server copies the staged file over, which gives it the staged mode.
    if (impl === 'tether') expect(statSync(at('notes.txt')).mode & 0o777).toBe(0o640);
    expect(staged()).toEqual([]);

    // The version a save answers is the base of the next one.
    if (saved.kind !== 'saved') throw new Error('not saved');
    const again = Buffer.from('short\n');
    expect(await save(rig, at('notes.txt'), again, 'ifUnchanged', saved.version)).toMatchObject({
      kind: 'saved',
    });
    expect(readFileSync(at('notes.txt')).equals(again)).toBe(true);
  });

  it('does not write over a file changed on the server; overwrite with mine then does', async () => {
    writeFileSync(at('plan.md'), '# Plan\n');
    const opened = textOf(await open(rig, at('plan.md')));
    writeFileSync(at('plan.md'), '# Plan\ntheirs\n');

    const result = await save(
      rig,
      at('plan.md'),
      Buffer.from('# Plan\nmine\n'),
      'ifUnchanged',
      opened.version,
    );
    expect(result).toMatchObject({ kind: 'conflict', theirs: { kind: 'text', text: '# Plan\ntheirs\n' } });
    expect(readFileSync(at('plan.md'), 'utf8')).toBe('# Plan\ntheirs\n');

    await save(rig, at('plan.md'), Buffer.from('# Plan\nmine\n'), 'overwrite', null);
    expect(readFileSync(at('plan.md'), 'utf8')).toBe('# Plan\nmine\n');
    expect(staged()).toEqual([]);
  });

  it('take theirs: their version is the base of the next save, which then goes through', async () => {
    writeFileSync(at('a.txt'), 'one\n');
    const opened = textOf(await open(rig, at('a.txt')));
    writeFileSync(at('a.txt'), 'two\n');
    const result = await save(rig, at('a.txt'), Buffer.from('mine\n'), 'ifUnchanged', opened.version);
    if (result.kind !== 'conflict') throw new Error(`expected a conflict, got ${result.kind}`);
    const theirs = textOf(result.theirs);
    expect(theirs.text).toBe('two\n');
    expect(
      await save(rig, at('a.txt'), Buffer.from('two\nmore\n'), 'ifUnchanged', theirs.version),
    ).toMatchObject({
      kind: 'saved',
    });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('two\nmore\n');
  });

  it('saves mine as a numbered copy and leaves theirs alone', async () => {
    writeFileSync(at('report.txt'), 'theirs\n');
    writeFileSync(at('report (1).txt'), 'an older copy\n');
    const result = await save(rig, at('report.txt'), Buffer.from('mine\n'), 'copy', null);
    expect(result).toMatchObject({ kind: 'saved', path: at('report (2).txt') });
    expect(readFileSync(at('report (2).txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(at('report.txt'), 'utf8')).toBe('theirs\n');
    expect(readFileSync(at('report (1).txt'), 'utf8')).toBe('an older copy\n');
  });

  it('a file deleted since it was opened is only written again when asked to recreate it', async () => {
    writeFileSync(at('gone.txt'), 'x\n');
    const opened = textOf(await open(rig, at('gone.txt')));
    rmSync(at('gone.txt'));
    expect(await save(rig, at('gone.txt'), Buffer.from('y\n'), 'ifUnchanged', opened.version)).toEqual({
      kind: 'deleted',
    });
    expect(existsSync(at('gone.txt'))).toBe(false);
    expect(await save(rig, at('gone.txt'), Buffer.from('y\n'), 'recreate', null)).toMatchObject({
      kind: 'saved',
    });
    expect(readFileSync(at('gone.txt'), 'utf8')).toBe('y\n');
    // Made again by someone else meanwhile: recreating does not replace it.
    const result = await save(rig, at('gone.txt'), Buffer.from('z\n'), 'recreate', null);
    expect(result).toMatchObject({ kind: 'conflict', theirs: { kind: 'text', text: 'y\n' } });
    expect(readFileSync(at('gone.txt'), 'utf8')).toBe('y\n');
  });

  it('the same bytes already on the server count as saved, not as a conflict', async () => {
    writeFileSync(at('same.txt'), 'old\n');
    const opened = textOf(await open(rig, at('same.txt')));
    writeFileSync(at('same.txt'), 'new\n');
    expect(
      await save(rig, at('same.txt'), Buffer.from('new\n'), 'ifUnchanged', opened.version),
    ).toMatchObject({
      kind: 'saved',
    });
  });

  it('binary and huge files are refused with the reason, huge text as a read-only start', async () => {
    writeFileSync(at('blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
    expect(await open(rig, at('blob.bin'))).toMatchObject({
      kind: 'binary',
      reason: expect.stringContaining('NUL bytes') as unknown,
    });
    writeFileSync(at('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await open(rig, at('latin1.txt'))).toMatchObject({
      kind: 'binary',
      reason: expect.stringContaining('not valid UTF-8') as unknown,
    });
    writeFileSync(at('big.log'), Buffer.alloc(EDITOR_OPEN_LIMIT_BYTES + 1, 'a'));
    const big = await open(rig, at('big.log'));
    expect(big).toMatchObject({ kind: 'preview', size: EDITOR_OPEN_LIMIT_BYTES + 1 });
    if (big.kind !== 'preview') throw new Error('not a preview');
    expect(big.text.length).toBe(256 * 1024);
    expect(big.reason).toContain('5 MiB');
  });

  it('a save made while the link is down waits for it and lands once, byte-exact', async () => {
    writeFileSync(at('offline.txt'), 'before\n');
    const opened = textOf(await open(rig, at('offline.txt')));
    rig.proxy.refuseNew(true);
    expect(rig.proxy.cutAll(), 'the live connection is cut').toBe(1);
    const linkOf = async () =>
      (await rig.h.invoke('environments.list', {})).find((e) => e.id === rig.envId)?.link.kind;
    await waitFor(async () => (await linkOf()) === 'reconnecting', 'link reconnecting');
    const mine = Buffer.from('written during the outage ✓\n');
    const refusedBefore = rig.proxy.stats().refused;
    let settled = false;
    const saving = save(rig, at('offline.txt'), mine, 'ifUnchanged', opened.version).finally(() => {
      settled = true;
    });
    // The client tries to reconnect while the save waits; the save neither fails nor lands meanwhile.
    await waitFor(() => rig.proxy.stats().refused > refusedBefore, 'a reconnect attempt during the save');
    expect(settled).toBe(false);
    expect(readFileSync(at('offline.txt'), 'utf8')).toBe('before\n');
    rig.proxy.refuseNew(false);
    rig.proxy.restore();
    expect(await saving).toMatchObject({ kind: 'saved', version: { size: mine.length } });
    expect(readFileSync(at('offline.txt')).equals(mine)).toBe(true);
    expect(staged()).toEqual([]);
  });

  it('a 4.5 MiB file opens, is edited and saved in chunks, byte-exact', async () => {
    const original = bigText(4.5 * 1_048_576);
    writeFileSync(at('big.txt'), original);
    const opened = textOf(await open(rig, at('big.txt')));
    expect(Buffer.from(opened.text).equals(original)).toBe(true);
    const mine = Buffer.from(`${opened.text.slice(0, 1000)}edited ✓\n${opened.text.slice(1000)}`);
    const saved = await saveInChunks(rig, at('big.txt'), mine, 'ifUnchanged', opened.version);
    expect(saved).toMatchObject({ kind: 'saved', version: { size: mine.length } });
    expect(readFileSync(at('big.txt')).equals(mine)).toBe(true);
    expect(staged()).toEqual([]);
  });

  it('a chunked save cut in the middle of its upload lands once, byte-exact', async () => {
    const original = bigText(4.5 * 1_048_576);
    writeFileSync(at('cut.txt'), original);
    const opened = textOf(await open(rig, at('cut.txt')));
    const mine = Buffer.from(opened.text.replaceAll('line', 'LINE'));
    // Slow enough upstream that the cut falls while the staged file is being written.
    rig.proxy.throttle(2_000_000, 'upstream');
    const before = rig.proxy.stats().bytesUpstream;
    const saving = saveInChunks(rig, at('cut.txt'), mine, 'ifUnchanged', opened.version);
    await waitFor(() => rig.proxy.stats().bytesUpstream - before > 1_048_576, 'a part of the save sent');
    expect(rig.proxy.cutAll(), 'the live connection is cut').toBe(1);
    expect(readFileSync(at('cut.txt')).equals(original), 'the original untouched meanwhile').toBe(true);
    rig.proxy.restore();
    expect(await saving).toMatchObject({ kind: 'saved', version: { size: mine.length } });
    expect(readFileSync(at('cut.txt')).equals(mine)).toBe(true);
    await waitFor(() => staged().length === 0, 'no staging file left');
  });

  it('a big file changed on the server while its save uploads is not written over', async () => {
    writeFileSync(at('race.txt'), bigText(4.5 * 1_048_576));
    const opened = textOf(await open(rig, at('race.txt')));
    rig.proxy.throttle(2_000_000, 'upstream');
    const saving = saveInChunks(
      rig,
      at('race.txt'),
      Buffer.from(`${opened.text}mine\n`),
      'ifUnchanged',
      opened.version,
    );
    // Someone writes the file while the save is staging: the check right before the rename sees it.
    await waitFor(() => staged().length === 1, 'the save staging');
    writeFileSync(at('race.txt'), 'theirs\n');
    const result = await saving;
    rig.proxy.restore();
    expect(result).toMatchObject({ kind: 'conflict', theirs: { kind: 'text', text: 'theirs\n' } });
    expect(readFileSync(at('race.txt'), 'utf8')).toBe('theirs\n');
    await waitFor(() => staged().length === 0, 'the staged save removed');
  });

  it('edits the target of a symlink and keeps the link', async () => {
    writeFileSync(at('real.conf'), 'a=1\n');
    symlinkSync(at('real.conf'), at('link.conf'));
    const opened = textOf(await open(rig, at('link.conf')));
    expect(opened.path).toBe(at('real.conf'));
    await save(rig, opened.path, Buffer.from('a=2\n'), 'ifUnchanged', opened.version);
    expect(lstatSync(at('link.conf')).isSymbolicLink()).toBe(true);
    expect(readFileSync(at('link.conf'), 'utf8')).toBe('a=2\n');
  });
});

function open(rig: RemoteAppRig, remotePath: string): Promise<EditorFile> {
  return rig.h.invoke('editor.open', { envId: rig.envId, path: remotePath });
}

function save(
  rig: RemoteAppRig,
  remotePath: string,
  data: Buffer,
  mode: EditorSaveMode,
  base: EditVersion | null,
) {
  return rig.h.invoke('editor.save', {
    envId: rig.envId,
    path: remotePath,
    dataBase64: data.toString('base64'),
    mode,
    base,
  });
}

/** The renderer's way for a save past one chunk: editor.beginSave, the chunks in order, editor.save. */
async function saveInChunks(
  rig: RemoteAppRig,
  remotePath: string,
  data: Buffer,
  mode: EditorSaveMode,
  base: EditVersion | null,
) {
  const { saveId } = await rig.h.invoke('editor.beginSave', { envId: rig.envId, totalBytes: data.length });
  for (let offset = 0; offset < data.length; offset += EDITOR_SAVE_CHUNK_BYTES) {
    const dataBase64 = data.subarray(offset, offset + EDITOR_SAVE_CHUNK_BYTES).toString('base64');
    await rig.h.invoke('editor.saveChunk', { saveId, offset, dataBase64 });
  }
  return rig.h.invoke('editor.save', { envId: rig.envId, path: remotePath, mode, base, saveId });
}

/** Numbered lines of UTF-8 text, `bytes` long (ASCII padding at the end), so a byte out of place shows. */
function bigText(bytes: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const line = `line ${i} of a large file, Grüße ✓\n`;
    if (length + Buffer.byteLength(line) > bytes) break;
    lines.push(line);
    length += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('') + '.'.repeat(bytes - length));
}

function textOf(file: EditorFile): Extract<EditorFile, { kind: 'text' }> {
  if (file.kind !== 'text') throw new Error(`expected text, got ${file.kind}`);
  return file;
}
