// The guard before every request: host names (DNS rebinding), foreign origins, the token, the cookie `?token=` sets.
import { describe, expect, it } from "vitest";
import { accessConfig, hostOfHeader } from "./access-config";
import { guardRequest, sameToken, tokenCookieName, type Guard } from "./guard-request";

const TOKEN = "k9Xo1v-Qm2e8WcT0h7rYpLs5Nf3uJa6dBg4ZiE_lKqA";
const config = accessConfig({ PI_VIEWER_TOKEN: TOKEN });

function guard(path: string, headers: Record<string, string>, cfg = config): Guard {
  const host = headers.host ?? "127.0.0.1:3000";
  // the URL Next makes comes from the Host header; the guard reads only its path, query and scheme
  return guardRequest({ url: new URL(`http://127.0.0.1:3000${path}`), headers: new Headers({ host, ...headers }) }, cfg);
}
const signedIn = { cookie: `${tokenCookieName("3000")}=${TOKEN}` };

describe("host names", () => {
  it.each(["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "LOCALHOST:3000", "localhost"])("lets in %s", (host) => {
    const port = /:(\d+)$/.exec(host)?.[1] ?? "80";
    expect(guard("/api/sessions", { host, cookie: `${tokenCookieName(port)}=${TOKEN}` })).toEqual({ kind: "pass" });
  });

  it.each([
    "evil.test:3000",
    "evil.test",
    "127.0.0.1.evil.test:3000",
    "localhost.:3000",
    "0.0.0.0:3000",
    "192.168.1.20:3000",
    "[::ffff:127.0.0.1]:3000",
    "a b",
    "",
  ])("refuses %j with 421 before the token is looked at, even with the right token", (host) => {
    const result = guard("/api/sessions", { host, ...signedIn, authorization: `Bearer ${TOKEN}` });
    expect(result).toMatchObject({ kind: "refuse", status: 421 });
  });

  it("lets in the name given with --host and those in PI_VIEWER_ALLOWED_HOSTS, never a wildcard", () => {
    const team = accessConfig({ PI_VIEWER_TOKEN: TOKEN, HOST: "0.0.0.0", PI_VIEWER_ALLOWED_HOSTS: "viewer.team.example, 10.0.0.5 ,[fd00::1]" });
    expect([...team.allowedHosts].sort()).toEqual(["10.0.0.5", "127.0.0.1", "[::1]", "[fd00::1]", "localhost", "viewer.team.example"].sort());
    const named = accessConfig({ PI_VIEWER_TOKEN: TOKEN, HOST: "devbox.lan" });
    expect(named.allowedHosts.has("devbox.lan")).toBe(true);
    expect(guard("/", { host: "viewer.team.example", authorization: `Bearer ${TOKEN}` }, team)).toEqual({ kind: "pass" });
    expect(guard("/", { host: "0.0.0.0:3000", authorization: `Bearer ${TOKEN}` }, team)).toMatchObject({ status: 421 });
  });

  it("parses Host headers strictly", () => {
    expect(hostOfHeader("[::1]:8080")).toBe("[::1]");
    expect(hostOfHeader("Example.COM:1")).toBe("example.com");
    expect(hostOfHeader("user@evil.test")).toBeNull();
    expect(hostOfHeader("evil.test/x")).toBeNull();
    expect(hostOfHeader(null)).toBeNull();
  });
});

describe("other sites", () => {
  it.each([
    ["another port of this machine", { origin: "http://127.0.0.1:8080" }],
    ["a rebound name", { origin: "http://evil.test:3000" }],
    ["an opaque origin (sandboxed frame, file://)", { origin: "null" }],
    ["a cross-site fetch without Origin", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" }],
    ["a same-site iframe (another port)", { "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" }],
    ["a cross-site navigation to the API", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }],
  ])("refuses %s with 403, token or not", (_, headers) => {
    expect(guard("/api/sessions", { ...signedIn, ...headers })).toMatchObject({ kind: "refuse", status: 403 });
  });

  it("lets our own pages in, and a top-level navigation from elsewhere reach the token check", () => {
    expect(guard("/api/sessions", { ...signedIn, origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" })).toEqual({ kind: "pass" });
    expect(guard("/view?file=a.jsonl", { ...signedIn, "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" })).toEqual({
      kind: "pass",
    });
    // a link from a chat: no cookie (SameSite=Strict), so it needs the token in the address
    const fromLink = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    expect(guard("/", fromLink)).toMatchObject({ kind: "refuse", status: 401 });
    expect(guard(`/?token=${TOKEN}`, fromLink)).toMatchObject({ kind: "redirect" });
  });
});

describe("the token", () => {
  it("refuses a request without one, or with another, with 401", () => {
    expect(guard("/api/sessions", {})).toMatchObject({ kind: "refuse", status: 401 });
    expect(guard("/", {})).toMatchObject({ kind: "refuse", status: 401 });
    expect(guard("/_next/static/chunks/x.js", {})).toMatchObject({ kind: "refuse", status: 401 });
    expect(guard("/api/sessions", { authorization: `Bearer ${TOKEN.slice(0, -1)}B` })).toMatchObject({ status: 401 });
    expect(guard("/api/sessions", { authorization: `Bearer ${TOKEN}x` })).toMatchObject({ status: 401 });
    expect(guard("/api/sessions", { authorization: `Basic ${btoa(`x:${TOKEN}`)}` })).toMatchObject({ status: 401 });
    expect(guard("/api/sessions", { cookie: `${tokenCookieName("3001")}=${TOKEN}` })).toMatchObject({ status: 401 });
  });

  it("lets in the bearer token and the cookie of this port", () => {
    expect(guard("/api/sessions", { authorization: `Bearer ${TOKEN}` })).toEqual({ kind: "pass" });
    expect(guard("/api/sessions", { cookie: `theme=dark; ${tokenCookieName("3000")}=${TOKEN}; other=1` })).toEqual({ kind: "pass" });
  });

  it("?token= sets an HttpOnly, SameSite=Strict cookie and redirects to the same address without it", () => {
    const result = guard(`/view?file=a%20b.jsonl&token=${TOKEN}&entry=e1`, {});
    expect(result).toEqual({
      kind: "redirect",
      location: "/view?file=a+b.jsonl&entry=e1",
      setCookie: `${tokenCookieName("3000")}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`,
    });
    expect(guard(`/?token=${TOKEN}`, {})).toMatchObject({ location: "/" });
    expect(guard(`/?token=wrong`, {})).toMatchObject({ kind: "refuse", status: 401 });
  });

  it("marks the cookie Secure behind https", () => {
    const result = guardRequest(
      { url: new URL(`https://viewer.team.example/?token=${TOKEN}`), headers: new Headers({ host: "viewer.team.example" }) },
      accessConfig({ PI_VIEWER_TOKEN: TOKEN, PI_VIEWER_ALLOWED_HOSTS: "viewer.team.example" }),
    );
    expect(result).toMatchObject({ kind: "redirect" });
    expect((result as { setCookie: string }).setCookie).toMatch(/^pi-viewer-token-443=.*; Secure$/);
  });

  it("fails closed when the server has no token, and opting out lets in loopback names only", () => {
    expect(guard("/", { authorization: "Bearer " }, accessConfig({}))).toMatchObject({ kind: "refuse", status: 401 });
    const open = accessConfig({ PI_VIEWER_NO_TOKEN: "1", PI_VIEWER_ALLOWED_HOSTS: "viewer.team.example" });
    expect(guard("/api/sessions", {}, open)).toEqual({ kind: "pass" });
    expect(guard("/api/sessions", { host: "viewer.team.example" }, open)).toMatchObject({ status: 421 });
    expect(guard("/api/sessions", { origin: "http://127.0.0.1:8080" }, open)).toMatchObject({ status: 403 });
  });

  it("compares whole tokens", () => {
    expect(sameToken(TOKEN, TOKEN)).toBe(true);
    expect(sameToken("", TOKEN)).toBe(false);
    expect(sameToken(`${TOKEN.slice(0, 10)}`, TOKEN)).toBe(false);
    for (let i = 0; i < TOKEN.length; i++) {
      const flipped = TOKEN.slice(0, i) + (TOKEN[i] === "a" ? "b" : "a") + TOKEN.slice(i + 1);
      expect(sameToken(flipped, TOKEN)).toBe(false);
    }
  });
});
