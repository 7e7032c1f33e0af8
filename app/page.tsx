// The library: sessions of the archive, or of the configured directory (or the bundled samples when it holds none), read on the server.
import { contentSearchFromParams } from "@/components/library/content-search";
import { ArchiveUnavailable } from "@/components/library/ArchiveUnavailable";
import { LibraryView } from "@/components/library/LibraryView";
import { ArchiveError, archiveFailure } from "@/lib/server/archive/archive-error";
import { loadLibrary } from "@/lib/server/library";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [library, params] = await Promise.all([loadLibrary().catch(archiveFailure), searchParams]);
  if (library instanceof ArchiveError) return <ArchiveUnavailable message={library.message} />;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (typeof value === "string") query.set(key, value);
  return (
    <LibraryView
      sessions={library.sessions}
      source={library.source}
      configuredDir={library.configuredDir}
      initialSearch={contentSearchFromParams(query)}
      initialMachine={query.get("machine")}
    />
  );
}
