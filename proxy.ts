// Every request, before anything is read: the host, origin and token checks (lib/server/guard-request.ts); then,
// for pages, a Content-Security-Policy: scripts only from Next's own tags (a fresh nonce per request, which Next
// reads from the request's CSP header and puts on its scripts) and the constant theme script (by hash). Session
// text is rendered as inert text anyway; the CSP is the second wall if something ever slips through.
import { NextResponse, type NextRequest } from "next/server";
import { THEME_SCRIPT } from "@/components/ui/theme-script";
import { accessConfig } from "@/lib/server/access-config";
import { guardRequest } from "@/lib/server/guard-request";
import { refusalResponse } from "@/lib/server/refusal-response";

let themeHash: Promise<string> | null = null;

/** sha256 of the inline theme script in <head> (app/layout.tsx), as a CSP hash source. */
function themeScriptHash(): Promise<string> {
  themeHash ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(THEME_SCRIPT))
    .then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  return themeHash;
}

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string, themeHashSource: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts that Next's nonced scripts load (its chunks) run, nothing parsed from markup does
    `script-src 'self' 'nonce-${nonce}' ${themeHashSource} 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React Flow and Tailwind's runtime positioning write style attributes; styles cannot run script
    "style-src 'self' 'unsafe-inline'",
    // the parse worker is a same-origin module script
    "worker-src 'self' blob:",
    // raster data: images from sessions (the inspector refuses data: SVG), downloads are blob: URLs
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // /view?src= may fetch a session from any CORS-enabled origin
    "connect-src 'self' http: https:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Hashed build output and public files: the same for everyone, no CSP needed (still guarded). */
const ASSET = /^\/(_next\/static|_next\/image|icon\.svg|favicon\.ico|samples\/)/;

export async function proxy(request: NextRequest): Promise<Response> {
  const guard = guardRequest({ url: request.nextUrl, headers: request.headers }, accessConfig(process.env));
  if (guard.kind === "refuse") return refusalResponse(guard, request.nextUrl.pathname.startsWith("/api/"));
  if (guard.kind === "redirect") {
    const response = NextResponse.redirect(new URL(guard.location, request.nextUrl), 303);
    response.headers.set("set-cookie", guard.setCookie);
    response.headers.set("cache-control", "no-store");
    return response;
  }
  if (ASSET.test(request.nextUrl.pathname)) return NextResponse.next();
  const csp = contentSecurityPolicy(newNonce(), await themeScriptHash());
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

// no matcher: every path, assets too, passes the guard
