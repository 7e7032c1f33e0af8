// Root layout: global styles (Tailwind + React Flow), the system font stack (no web fonts, so builds work
// offline), and the theme applied before first paint.
import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "@xyflow/react/dist/style.css";
import "./globals.css";
import { THEME_SCRIPT } from "@/components/ui/theme-script";

export const metadata: Metadata = {
  title: "pi session viewer",
  description: "Look inside pi coding agent session files: the tree, the leaf, the context the model sees, forks.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0e0f12" },
  ],
};

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    // the theme script sets the class on <html> before React hydrates
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* a constant string of our own, not content: sets .dark before first paint */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans text-[13px] antialiased">{children}</body>
    </html>
  );
}
