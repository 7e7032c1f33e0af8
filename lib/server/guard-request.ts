/**
 * The decision proxy.ts takes before anything is read: a request must name one of our hosts (no DNS rebinding),
 * come from our own pages when it is not a top-level navigation (no cross-site reads or writes), and carry the
 * token (no other user of the machine). Web APIs only; the response is built by the proxy.
 */
import { LOOPBACK_NAMES, hostOfHeader, type AccessConfig } from "./access-config";

export type Guard =
  | { kind: "pass" }
  /** `?token=` was right: keep it in a cookie and show the same address without it */
  | { kind: "redirect"; location: string; setCookie: string }
  | { kind: "refuse"; status: 401 | 403 | 421; reason: string };

export interface GuardedRequest {
  url: URL;
  headers: Headers;
}

/** The cookie's name carries the port: cookies are not kept apart by port, and two viewers may run side by side. */
export function tokenCookieName(port: string): string {
  return `pi-viewer-token-${port}`;
}

/** Equal strings, compared in time that does not depend on where they differ (a token's length is no secret). */
export function sameToken(given: string, token: string): boolean {
  if (given.length !== token.length) return false;
  let diff = 0;
  for (let i = 0; i < token.length; i++) diff |= given.charCodeAt(i) ^ token.charCodeAt(i);
  return diff === 0;
}

function cookie(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function bearer(headers: Headers): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

/** Why a request that did not come from our own pages is refused, or null when it did (or is a navigation). */
function foreignSource(request: GuardedRequest, host: string): string | null {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      originHost = origin === "null" ? null : new URL(origin).host.toLowerCase();
    } catch {
      originHost = null;
    }
    if (originHost !== host) return `a request from ${origin === "null" ? "an opaque origin" : origin}`;
  }
  // same-site counts as foreign: a page on another port of this machine is same-site
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    const topLevel = request.headers.get("sec-fetch-mode") === "navigate" && request.headers.get("sec-fetch-dest") === "document";
    if (!topLevel || request.url.pathname.startsWith("/api/")) return "a request from another site";
  }
  return null;
}

export function guardRequest(request: GuardedRequest, config: AccessConfig): Guard {
  const hostHeader = request.headers.get("host");
  const host = hostOfHeader(hostHeader);
  if (host === null || !config.allowedHosts.has(host) || (config.optedOut && !(LOOPBACK_NAMES as readonly string[]).includes(host))) {
    return { kind: "refuse", status: 421, reason: `this server does not answer to the host name ${JSON.stringify(hostHeader ?? "")}` };
  }
  const foreign = foreignSource(request, hostHeader!.trim().toLowerCase());
  if (foreign) return { kind: "refuse", status: 403, reason: `${foreign} is not let in` };
  if (config.optedOut) return { kind: "pass" };
  const token = config.token;
  if (token === null) return { kind: "refuse", status: 401, reason: "this server was started without a token (PI_VIEWER_TOKEN)" };

  const port = /:(\d+)$/.exec(hostHeader!.trim())?.[1] ?? (request.url.protocol === "https:" ? "443" : "80");
  const offered = request.url.searchParams.get("token");
  if (offered !== null) {
    if (!sameToken(offered, token)) return { kind: "refuse", status: 401, reason: "the token in this address is not this server's" };
    const clean = new URL(request.url);
    clean.searchParams.delete("token");
    const secure = request.url.protocol === "https:" ? "; Secure" : "";
    return {
      kind: "redirect",
      location: `${clean.pathname}${clean.search}`,
      setCookie: `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000${secure}`,
    };
  }
  const given = bearer(request.headers) ?? cookie(request.headers, tokenCookieName(port));
  if (given === null) return { kind: "refuse", status: 401, reason: "the request carries no token" };
  if (!sameToken(given, token)) return { kind: "refuse", status: 401, reason: "the request's token is not this server's" };
  return { kind: "pass" };
}
