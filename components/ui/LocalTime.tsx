"use client";

// A date in the reader's time zone, rendered in the browser only (the server's zone differs from the
// reader's, which would break hydration); the server renders the UTC date.
import { useSyncExternalStore } from "react";
import { formatDateTime } from "./format";

const noop = () => () => {};

export function LocalTime({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const inBrowser = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  if (!iso) return null;
  const text = inBrowser ? formatDateTime(iso) : iso.slice(0, 10);
  return (
    <time dateTime={iso} title={inBrowser ? new Date(iso).toString() : undefined} className={className}>
      {text}
    </time>
  );
}
