// OSC 7, the "current working directory" report many shells emit at each prompt
// (`ESC ] 7 ; file://host/path BEL`): the folder a split of the pane starts in.

/** Longest folder taken from a report; the program sending it is not trusted to bound it. */
const MAX_FOLDER_LENGTH = 4096;

/** The absolute path an OSC 7 payload (`file://host/path`, percent-encoded) names, or null. */
export function folderOfOsc7(payload: string): string | null {
  const match = /^file:\/\/[^/]*(\/.*)$/.exec(payload);
  if (!match?.[1]) return null;
  let folder: string;
  try {
    folder = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  // Control characters have no place in a folder the app hands back as a process's cwd.
  // eslint-disable-next-line no-control-regex
  if (folder.length > MAX_FOLDER_LENGTH || /[\u0000-\u001f\u007f]/.test(folder)) return null;
  return folder;
}
