// What `tether web` remembers between starts, so the page's address (port and path) stays the same
// and an open page or a bookmark comes back by itself after a restart. Kept in the data dir as
// web-address.json (0600): the port, the path scope's random part, and the session secret that the
// login cookie carries (so a browser logged in before the restart is still logged in after it).
// The path is not a secret; the session secret is never printed, logged or put in a URL.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../app/persistence/atomic-file';
import { WebHostListenError } from './web-host';

export const WEB_ADDRESS_FILE_NAME = 'web-address.json';

/** Random base64url text, long enough to be unguessable (path segment and cookie name safe). */
const RandomPart = z.string().regex(/^[A-Za-z0-9_-]{16,}$/);

const WebAddressFile = z.object({
  version: z.literal(1),
  port: z.number().int().min(1).max(65_535).nullable(),
  launch: RandomPart,
  session: RandomPart,
});

export interface WebAddress {
  /** The port of the last start, or null before the first one. */
  port: number | null;
  /** The random part of the path scope `/<launch>/` and of the cookie name `tether_<launch>`. */
  launch: string;
  /** The value of the login cookie. */
  session: string;
}

/** The remembered address, or a fresh one (no port yet) when none is stored or it is unreadable. */
export async function loadWebAddress(dataDir: string): Promise<WebAddress> {
  try {
    const text = await fs.readFile(path.join(dataDir, WEB_ADDRESS_FILE_NAME), 'utf8');
    const { port, launch, session } = WebAddressFile.parse(JSON.parse(text));
    return { port, launch, session };
  } catch {
    return {
      port: null,
      launch: randomBytes(12).toString('base64url'),
      session: randomBytes(24).toString('base64url'),
    };
  }
}

export async function saveWebAddress(dataDir: string, address: WebAddress): Promise<void> {
  const body: z.infer<typeof WebAddressFile> = { version: 1, ...address };
  await writeFileAtomic(path.join(dataDir, WEB_ADDRESS_FILE_NAME), JSON.stringify(body, null, 2), 0o600);
}

export interface ListenResult<T> {
  host: T;
  /** The remembered port when it was taken and a free one was used instead. */
  fallbackFrom?: number;
}

/**
 * Starts on the port asked for (`--port`; taken means failure, as the user chose it), else on the
 * remembered one, else on a free one. A remembered port that is taken (or not permitted) now falls
 * back to a free port: the app still starts, on a new address.
 */
export async function listenOnRememberedPort<T>(
  start: (port: number) => Promise<T>,
  requested: number | undefined,
  remembered: number | null,
): Promise<ListenResult<T>> {
  if (requested !== undefined) return { host: await start(requested) };
  if (remembered === null) return { host: await start(0) };
  try {
    return { host: await start(remembered) };
  } catch (error) {
    if (!(error instanceof WebHostListenError) || error.reason === 'other') throw error;
    return { host: await start(0), fallbackFrom: remembered };
  }
}
