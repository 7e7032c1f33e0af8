// Stands in for next/link in the standalone viewer (scripts/build-viewer.mjs): there is no router to prefetch
// for, so a link is a plain anchor.
import type { AnchorHTMLAttributes } from "react";

const ROUTER_PROPS = ["prefetch", "replace", "scroll"];

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { href: string | { toString(): string } };

export default function PlainLink({ href, ...props }: Props) {
  const anchor: Record<string, unknown> = { ...props };
  for (const key of ROUTER_PROPS) delete anchor[key];
  return <a href={String(href)} {...anchor} />;
}
