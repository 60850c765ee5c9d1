// The principal: who a connection's credential stands for, computed once when the connection is
// accepted. Sessions carry their creator's principal, and the session registry shows a session
// (its processes, a resume, an attach) only to connections of the same principal.
//   capability token   `token:<sha256 of the token>`
//   HS256 JWT          `jwt:<sub>` (a token without `sub`: a principal of its own connection)
//   unix socket, stdio `uid:<uid>`: the socket lives in a 0700 directory of the server's user and
//                      is 0600 itself, so every peer runs as that user (or root)
//   --ws-auth none     `anonymous`: everyone who reaches the port
import { randomUUID } from 'node:crypto';

export type Principal = string;

export const ANONYMOUS_PRINCIPAL: Principal = 'anonymous';

/** A principal nobody else shares. */
export function connectionPrincipal(): Principal {
  return `connection:${randomUUID()}`;
}

/** The principal of a unix-socket or stdio peer: the server's own user, who alone can reach it. */
export function localUserPrincipal(uid: number | undefined = process.getuid?.()): Principal {
  return `uid:${uid ?? 'unknown'}`;
}
