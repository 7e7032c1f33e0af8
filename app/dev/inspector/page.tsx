// Dev-only harness for the inspector until the viewer page exists: /dev/inspector?file=<path>&entry=<id>. Removed once /view works.
import { notFound } from "next/navigation";
import { Harness } from "./harness";

export default function InspectorHarnessPage() {
  if (process.env.NODE_ENV === "production") notFound();
  return <Harness />;
}
