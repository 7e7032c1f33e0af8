// The library: sessions of the configured directory (or the bundled samples when it holds none), read on the server.
import { LibraryView } from "@/components/library/LibraryView";
import { loadLibrary } from "@/lib/server/library";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const library = await loadLibrary();
  return <LibraryView sessions={library.sessions} source={library.source} configuredDir={library.configuredDir} />;
}
