/**
 * Who may talk to the server: its token and the host names it answers to, read from the environment the start
 * scripts (scripts/serve.mjs) set. Web APIs only: proxy.ts runs it before every request.
 */

/** The names a browser on this machine uses for it; nothing a DNS answer can make a foreign page use. */
export const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"] as const;

export interface AccessConfig {
  /** null when none was given: every request is refused (fail closed) unless the user opted out */
  token: string | null;
  /** PI_VIEWER_NO_TOKEN=1: no token asked, and only loopback names let in (the start scripts refuse it elsewhere) */
  optedOut: boolean;
  /** lower-case host names without port; IPv6 in brackets */
  allowedHosts: ReadonlySet<string>;
}

/** Host names that mean "every interface", not a name a browser can ask for. */
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** A host as it appears in a Host header: lower case, IPv6 in brackets. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

/** The host part of a Host header value (`name:port`, `[v6]:port`), normalised; null when it is not one. */
export function hostOfHeader(header: string | null): string | null {
  if (!header) return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  return match ? hostName(match[1]!) : null;
}

/**
 * The configuration from the environment: PI_VIEWER_TOKEN (set by the start scripts, or by a user to fix it),
 * PI_VIEWER_NO_TOKEN=1 to opt out, HOST (the bound name, if it is one) and PI_VIEWER_ALLOWED_HOSTS (comma-separated
 * names a reverse proxy or another machine uses).
 */
export function accessConfig(env: Record<string, string | undefined>): AccessConfig {
  const allowedHosts = new Set<string>(LOOPBACK_NAMES);
  for (const name of [env.HOST, ...(env.PI_VIEWER_ALLOWED_HOSTS ?? "").split(",")]) {
    const host = name ? hostName(name) : "";
    if (host && !WILDCARDS.has(host)) allowedHosts.add(host);
  }
  return { token: env.PI_VIEWER_TOKEN || null, optedOut: env.PI_VIEWER_NO_TOKEN === "1", allowedHosts };
}
