// Nobody but the user reaches the server (proxy.ts, lib/server/guard-request.ts): a page on another origin, signed
// in or not, reads nothing; a rebound host name gets nothing; without the token every route answers 401; `?token=`
// leaves an HttpOnly, SameSite=Strict cookie and an address without the token.
import { createServer, type Server } from "node:http";
import { chromium, expect, request as playwrightRequest, test } from "@playwright/test";
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from "./chromium";
import { SESSION_FILES, viewUrl } from "./fixtures/session-files";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const TOKEN = process.env.PI_VIEWER_TOKEN!;
const RAW = `/api/sessions/raw?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`;

/** Every route of the app, pages, API and assets. */
const ROUTES = [
  "/",
  "/usage",
  viewUrl("ca-tiny"),
  "/api/sessions",
  RAW,
  `/api/sessions/light?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`,
  `/api/sessions/tail?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`,
  `/api/sessions/with-source?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`,
  `/api/sessions/family?path=${encodeURIComponent(SESSION_FILES["ca-tiny"])}`,
  "/api/sessions/forks",
  "/api/search?q=redis",
  "/api/search/facets",
  "/api/search/status",
  "/api/usage?by=day",
  "/icon.svg",
  "/viewer/share-template.html",
  "/no/such/page",
];

/** An attacker's page on another port of this machine: it tries every way a page can reach another origin. */
const ATTACK = (target: string) => `<!doctype html><meta charset="utf-8"><body><script>
const target = ${JSON.stringify(target)};
const results = (window.results = {});
const settle = (name, promise) => promise.then((v) => (results[name] = v), (e) => (results[name] = "error: " + e));
settle("fetch", fetch(target + "/api/sessions", { credentials: "include" }).then((r) => r.text()));
settle("fetch-raw", fetch(target + ${JSON.stringify(RAW)}, { credentials: "include" }).then((r) => r.text()));
settle("fetch-no-cors", fetch(target + "/api/sessions", { mode: "no-cors", credentials: "include" }).then((r) => r.type + ":" + r.status));
settle("xhr", new Promise((resolve, reject) => {
  const x = new XMLHttpRequest();
  x.withCredentials = true;
  x.open("GET", target + "/api/sessions");
  x.onload = () => resolve(x.responseText);
  x.onerror = () => reject("network error");
  x.send();
}));
settle("img", new Promise((resolve, reject) => {
  const img = new Image();
  img.onload = () => resolve("loaded " + img.width);
  img.onerror = () => reject("not an image");
  img.src = target + ${JSON.stringify(RAW)};
}));
const frame = document.createElement("iframe");
frame.name = "frame";
frame.src = target + "/";
document.body.append(frame);
const sink = document.createElement("iframe");
sink.name = "sink";
document.body.append(sink);
const form = document.createElement("form");
form.method = "POST";
form.action = target + "/api/sessions";
form.target = "sink";
form.innerHTML = '<input name="x" value="1">';
document.body.append(form);
form.submit();
</script>`;

function serveAttack(target: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(ATTACK(target)));
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })),
  );
}

test("a page on another port, in a browser signed in to the viewer, reads nothing by fetch, XHR, img, iframe or form", async ({ context, page }) => {
  const { origin, server } = await serveAttack(ORIGIN);
  // what crossed the wire, as Chromium's network layer saw it: also the answers it then held back from the page (CORS)
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const urls = new Map<string, string>();
  // by request id; the url is looked up when read: Chromium may report a request's headers before the request itself
  const wire = new Map<string, { status?: number; cookie?: string; cors?: string }>();
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.request.url.startsWith(ORIGIN)) urls.set(e.requestId, `${e.request.method} ${new URL(e.request.url).pathname}`);
  });
  cdp.on("Network.requestWillBeSentExtraInfo", (e) => {
    wire.set(e.requestId, { ...wire.get(e.requestId), cookie: e.headers.Cookie ?? e.headers.cookie });
  });
  cdp.on("Network.responseReceivedExtraInfo", (e) => {
    const cors = Object.entries(e.headers).find(([k]) => k.toLowerCase() === "access-control-allow-origin")?.[1];
    wire.set(e.requestId, { ...wire.get(e.requestId), status: e.statusCode, cors });
  });
  try {
    // the browser holds the viewer's cookie, as after the user opened it: same-site pages send it along
    expect((await context.cookies(ORIGIN)).map((c) => c.name)).toContain(`pi-viewer-token-${PORT}`);
    await page.goto(origin);
    await expect.poll(() => page.evaluate(() => Object.keys((window as unknown as { results: object }).results).length)).toBe(5);
    const results = await page.evaluate(() => (window as unknown as { results: Record<string, string> }).results);
    expect(results.fetch).toMatch(/^error: TypeError/);
    expect(results["fetch-raw"]).toMatch(/^error: TypeError/);
    expect(results["fetch-no-cors"]).toBe("opaque:0");
    expect(results.xhr).toBe("error: network error");
    expect(results.img).toBe("error: not an image");
    for (const name of ["frame", "sink"])
      expect(
        await page
          .frame({ name })!
          .content()
          .catch(() => ""),
      ).not.toMatch(/jsonl|session/i);

    // and the server itself refused every one, the token's cookie sent along notwithstanding, before the browser's
    // own rules came in: nothing was answered, and no CORS header invited the page to read it
    const seen = () => [...wire].flatMap(([id, w]) => (urls.has(id) && w.status !== undefined ? [{ ...w, url: urls.get(id)! }] : []));
    await expect.poll(() => seen().length).toBe(7);
    expect(
      seen()
        .map((w) => `${w.url} ${w.status}`)
        .sort(),
    ).toEqual(
      [
        "GET / 403",
        "GET /api/sessions 403",
        "GET /api/sessions 403",
        "GET /api/sessions 403",
        "GET /api/sessions/raw 403",
        "GET /api/sessions/raw 403",
        "POST /api/sessions 403",
      ].sort(),
    );
    for (const w of seen()) {
      expect(w.cookie, w.url).toContain(`pi-viewer-token-${PORT}=${TOKEN}`);
      expect(w.cors, w.url).toBeUndefined();
    }
  } finally {
    server.close();
  }
});

test("DNS rebinding: a foreign name resolving to 127.0.0.1 gets 421 for pages, API and assets, token or not", async () => {
  const browser = await chromium.launch({ executablePath: E2E_CHROMIUM_PATH, args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.test 127.0.0.1"] });
  try {
    const page = await browser.newPage();
    const base = `http://evil.test:${PORT}`;
    const first = await page.goto(`${base}/?token=${encodeURIComponent(TOKEN)}`);
    expect(first!.status()).toBe(421);
    await expect(page.locator("h1")).toHaveText("Unknown host name");
    for (const path of ["/api/sessions", RAW, "/icon.svg", "/_next/static/chunks/none.js", viewUrl("ca-tiny")]) {
      expect((await page.goto(`${base}${path}`))!.status(), path).toBe(421);
    }
    expect(await page.context().cookies(base)).toEqual([]);
  } finally {
    await browser.close();
  }
});

test("a foreign Host header is refused even with the token; loopback names are let in", async () => {
  const api = await playwrightRequest.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { authorization: `Bearer ${TOKEN}` } });
  try {
    for (const host of [`evil.test:${PORT}`, `127.0.0.1.nip.io:${PORT}`, `0.0.0.0:${PORT}`])
      expect((await api.get(`${ORIGIN}/api/sessions`, { headers: { host } })).status(), host).toBe(421);
    for (const host of [`localhost:${PORT}`, `127.0.0.1:${PORT}`, `[::1]:${PORT}`])
      expect((await api.get(`${ORIGIN}/api/sessions`, { headers: { host } })).status(), host).toBe(200);
  } finally {
    await api.dispose();
  }
});

test("without the token every route answers 401; a wrong token too; the bearer token opens the API", async () => {
  // (a new request context takes the config's signed-in storage state unless told otherwise)
  const none = { baseURL: ORIGIN, storageState: { cookies: [], origins: [] } };
  const anonymous = await playwrightRequest.newContext(none);
  const wrongToken = TOKEN.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
  const wrong = await playwrightRequest.newContext({ ...none, extraHTTPHeaders: { authorization: `Bearer ${wrongToken}` } });
  const bearer = await playwrightRequest.newContext({ ...none, extraHTTPHeaders: { authorization: `Bearer ${TOKEN}` } });
  try {
    for (const route of ROUTES) {
      const answer = await anonymous.get(route, { maxRedirects: 0 });
      expect(answer.status(), route).toBe(401);
      expect(answer.headers()["www-authenticate"], route).toBe('Bearer realm="pi-session-viewer"');
      expect((await wrong.get(route, { maxRedirects: 0 })).status(), route).toBe(401);
    }
    const page = await anonymous.get("/");
    expect(await page.text()).toContain("?token=");
    expect((await bearer.get("/api/sessions")).status()).toBe(200);
    expect((await bearer.get(RAW)).status()).toBe(200);
  } finally {
    await Promise.all([anonymous.dispose(), wrong.dispose(), bearer.dispose()]);
  }
});

test("?token= sets an HttpOnly, SameSite=Strict cookie, lands on the address without it, and the app works", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const page = await context.newPage();
    const refused = await page.goto(`${ORIGIN}/`);
    expect(refused!.status()).toBe(401);
    await expect(page.locator("h1")).toHaveText("Token needed");

    await page.goto(`${ORIGIN}${viewUrl("ca-tiny")}&token=${encodeURIComponent(TOKEN)}#entry=x`);
    expect(page.url()).toBe(`${ORIGIN}${viewUrl("ca-tiny")}#entry=x`);
    await expect(page.getByTestId("dropzone")).toHaveAttribute("data-load-phase", "ready", { timeout: 60_000 });
    const [cookie] = await context.cookies(ORIGIN);
    expect(cookie).toMatchObject({ name: `pi-viewer-token-${PORT}`, value: TOKEN, httpOnly: true, sameSite: "Strict", path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain(TOKEN);
  } finally {
    await context.close();
  }
});
