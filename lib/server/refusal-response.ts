/**
 * What a refused request gets: a short page that says how to get in (or JSON for the API), with nothing of the
 * library in it and nothing to run.
 */
import type { Guard } from "./guard-request";

type Refusal = Extract<Guard, { kind: "refuse" }>;

const HOW_TO_GET_IN: Record<Refusal["status"], string> = {
  401:
    "This viewer lets in only whoever started it. Open the address it printed when it started: it ends in <code>?token=…</code> " +
    "(<code>npm start</code>, <code>pi-session-viewer</code> and <code>/viewer</code> in pi print it, and <code>--open</code> opens it). " +
    "The token changes each time the server starts unless <code>PI_VIEWER_TOKEN</code> fixes it; scripts send it as " +
    "<code>Authorization: Bearer TOKEN</code>.",
  403: "The viewer answers only its own pages: requests from other sites, and other ports of this machine, are refused.",
  421:
    "The viewer answers only to <code>localhost</code>, <code>127.0.0.1</code> and <code>[::1]</code>, the name given with " +
    "<code>--host</code>, and names listed in <code>PI_VIEWER_ALLOWED_HOSTS</code> (for a reverse proxy or a team server).",
};

const TITLES: Record<Refusal["status"], string> = { 401: "Token needed", 403: "Not from this viewer", 421: "Unknown host name" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function refusalResponse(refusal: Refusal, api: boolean): Response {
  const headers = new Headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  if (refusal.status === 401) headers.set("www-authenticate", 'Bearer realm="pi-session-viewer"');
  if (api) {
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify({ error: `${TITLES[refusal.status]}: ${refusal.reason}` }), { status: refusal.status, headers });
  }
  headers.set("content-type", "text/html; charset=utf-8");
  headers.set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${TITLES[refusal.status]} · pi session viewer</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1c1917;background:#fafaf9}
@media (prefers-color-scheme:dark){body{color:#e7e5e4;background:#1c1917}}code{font-size:90%}p.why{color:#78716c}</style></head>
<body><h1>${TITLES[refusal.status]}</h1><p>${HOW_TO_GET_IN[refusal.status]}</p><p class="why">Refused: ${escapeHtml(refusal.reason)}.</p></body></html>
`;
  return new Response(page, { status: refusal.status, headers });
}
