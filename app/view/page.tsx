// The viewer: /view?file=<path>|src=<url>|upload=<name>[&entry=<id>][&tab=path|context].
import path from "node:path";
import { ViewerApp } from "@/components/viewer/ViewerApp";
import { readViewParams } from "@/components/viewer/view-params";
import { ArchiveUnavailable } from "@/components/library/ArchiveUnavailable";
import { ArchiveError, archiveFailure } from "@/lib/server/archive/archive-error";
import { sessionRoot, type SessionStore } from "@/lib/server/library";
import { maxFileBytes } from "@/lib/server/limits";

export const dynamic = "force-dynamic";

export default async function ViewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = readViewParams(await searchParams);
  const store = params.file ? await sessionRoot().catch(archiveFailure) : null;
  if (store instanceof ArchiveError) return <ArchiveUnavailable message={store.message} />;
  const samples = store?.source === "samples";
  const key = `${params.file ?? ""}|${params.src ?? ""}|${params.upload ?? ""}`;
  return (
    <ViewerApp
      key={key}
      params={params}
      samples={samples}
      maxFileBytes={maxFileBytes()}
      fileOnDisk={store && params.file && !samples ? await fileOnDisk(store, params.file) : null}
    />
  );
}

/**
 * Where the file is on its machine, as pi names a fork's source: in the sessions directory here, or, for an
 * archived file, in the directory its machine pushed it from. Null when the archive does not hold it (the page
 * says so when it asks for the bytes).
 */
async function fileOnDisk(store: SessionStore, rel: string): Promise<string | null> {
  if (store.source !== "archive") return `${store.dir.split(path.sep).join("/")}/${rel}`;
  const archived = (await store.resolve(rel).catch(() => null))?.archived;
  return archived ? path.posix.join(archived.root, rel.slice(archived.machine.length + 1)) : null;
}
