// The credentials of `tether web`: the per-launch token, the path scope everything is served under,
// the cookie (its name and path are both random, since cookies ignore ports and would otherwise
// reach every server on 127.0.0.1), and one-time codes that a browser trades for that cookie. The
// scope and the cookie's value (the session) are remembered across restarts (web-address.ts), so a
// logged-in page comes back by itself; the token, which the printed URL carries, is new each launch.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** How long a one-time code (the one the browser opener gets) stays redeemable. */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;

export class WebCredentials {
  /** This launch's bearer secret: in the printed URL, in `Authorization: Bearer`. */
  readonly token: string;
  /** The login cookie's value: never printed or put in a URL. */
  readonly session: string;
  /** `/<random>/`: the only path the app, its WebSocket and its downloads live under. */
  readonly scope: string;
  /** `tether_<random>`: the login cookie; any other cookie name is ignored. */
  readonly cookieName: string;
  /** Live codes, each with its expiry timer and what to do once it is spent (used or expired). */
  private readonly codes = new Map<string, { timer: NodeJS.Timeout; onSpent: () => void }>();

  /** `remembered`: the scope's random part and the session of an earlier start; fresh ones otherwise. */
  constructor(remembered?: { launch: string; session: string }) {
    this.token = randomBytes(24).toString('base64url');
    this.session = remembered?.session ?? randomBytes(24).toString('base64url');
    const launch = remembered?.launch ?? randomBytes(12).toString('base64url');
    this.scope = `/${launch}/`;
    this.cookieName = `tether_${launch}`;
  }

  /**
   * The Set-Cookie value that logs a browser in: HttpOnly, sent only under the scope. Lax, not
   * Strict: the browser arrives from the opener's file:// page, a cross-site navigation on which a
   * Strict cookie would not be sent, so the first page load would be refused. Cross-site GETs are
   * harmless here (nothing changes state on a GET, and the WebSocket checks its Origin).
   */
  cookie(): string {
    return `${this.cookieName}=${this.session}; HttpOnly; SameSite=Lax; Path=${this.scope}`;
  }

  /** True when the request carries the login cookie or an `Authorization: Bearer` with the token. */
  authenticates(request: IncomingMessage): boolean {
    return (
      secretMatches(bearerToken(request), this.token) || secretMatches(this.cookieOf(request), this.session)
    );
  }

  /** True when `given` is the token (the credential of the printed URL). */
  isToken(given: string | null): boolean {
    return secretMatches(given, this.token);
  }

  /**
   * A fresh one-time code, redeemable once within LOGIN_CODE_TTL_MS. `onSpent` runs once it can no
   * longer be used (redeemed, expired, or the host closed).
   */
  issueCode(onSpent: () => void = () => undefined): string {
    const code = randomBytes(24).toString('base64url');
    const timer = setTimeout(() => this.spend(code), LOGIN_CODE_TTL_MS);
    timer.unref();
    this.codes.set(code, { timer, onSpent });
    return code;
  }

  /** Uses up `given` if it is a live code; true when it was one. */
  redeemCode(given: string | null): boolean {
    if (!given) return false;
    for (const code of this.codes.keys()) {
      if (!secretMatches(given, code)) continue;
      this.spend(code);
      return true;
    }
    return false;
  }

  close(): void {
    for (const code of [...this.codes.keys()]) this.spend(code);
  }

  private spend(code: string): void {
    const entry = this.codes.get(code);
    if (!entry) return;
    this.codes.delete(code);
    clearTimeout(entry.timer);
    entry.onSpent();
  }

  private cookieOf(request: IncomingMessage): string | null {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === this.cookieName) return rest.join('=');
    }
    return null;
  }
}

function bearerToken(request: IncomingMessage): string | null {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/** Constant-time comparison, so a wrong guess reveals nothing about how much of it was right. */
function secretMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
