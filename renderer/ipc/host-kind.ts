// Which host runs this renderer: the Electron window or a browser tab (web mode). Set once at
// start-up; the shortcuts depend on it, since a browser keeps some keys for itself.

export type HostKind = 'electron' | 'web';

let kind: HostKind = 'electron';

export function setHostKind(next: HostKind): void {
  kind = next;
}

export function hostKind(): HostKind {
  return kind;
}
