// Any address the app does not serve. Rendered per request, not prerendered at build: a prerendered page's
// scripts carry no nonce, and the CSP (proxy.ts) would block them.
import type { Metadata } from "next";
import { connection } from "next/server";
import { ViewerMessage } from "@/components/viewer/ViewerMessage";

export const metadata: Metadata = { title: "Not found · pi session viewer" };

export default async function NotFound() {
  await connection();
  return (
    <main className="flex min-h-screen flex-col">
      <ViewerMessage icon="search" title="There is no page at this address">
        Sessions are listed in the library, and open in the viewer at <code>/view</code>.
      </ViewerMessage>
    </main>
  );
}
