// The viewer: /view?file=<path>|src=<url>|upload=<name>[&entry=<id>][&tab=path|context].
import path from "node:path";
import { ViewerApp } from "@/components/viewer/ViewerApp";
import { readViewParams } from "@/components/viewer/view-params";
import { libraryRoot } from "@/lib/server/library";
import { maxFileBytes } from "@/lib/server/limits";

export const dynamic = "force-dynamic";

export default async function ViewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = readViewParams(await searchParams);
  const library = params.file ? await libraryRoot() : null;
  const samples = library?.source === "samples";
  const key = `${params.file ?? ""}|${params.src ?? ""}|${params.upload ?? ""}`;
  return (
    <ViewerApp
      key={key}
      params={params}
      samples={samples}
      maxFileBytes={maxFileBytes()}
      sessionsDir={library && !samples ? library.dir.split(path.sep).join("/") : null}
    />
  );
}
