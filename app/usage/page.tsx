// The usage page: tokens and cost across the library (components/usage), its first rows read on the server.
import { Suspense } from "react";
import { UsageView } from "@/components/usage/UsageView";
import { USAGE_GROUPINGS, type UsageGrouping } from "@/lib/library/usage";
import { ArchiveUnavailable } from "@/components/library/ArchiveUnavailable";
import { ArchiveError, archiveFailure } from "@/lib/server/archive/archive-error";
import { libraryRoot } from "@/lib/server/library";
import { libraryUsage, parseUsageSince } from "@/lib/server/library-usage";

export const dynamic = "force-dynamic";

export const metadata = { title: "Usage · pi session viewer" };

const RENDER_WAIT_MS = 1500;

export default async function UsagePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const byParam = typeof params.by === "string" ? params.by : "day";
  const by: UsageGrouping = (USAGE_GROUPINGS as readonly string[]).includes(byParam) ? (byParam as UsageGrouping) : "day";
  const sinceParam = typeof params.since === "string" ? params.since : null;
  const since = sinceParam === null ? null : parseUsageSince(sinceParam);
  const root = await libraryRoot().catch(archiveFailure);
  if (root instanceof ArchiveError) return <ArchiveUnavailable message={root.message} />;
  const { files, dir, archive } = root;
  // a first index of a large library takes a while: the page is sent without rows then and shows the index's
  // progress; the work goes on, and the page's own request for the rows waits its turn behind it
  const work = libraryUsage(dir, files, by, since, { archive });
  work.catch(() => {}); // a failure after the page was sent is the page's own request's to report
  const rows = await Promise.race([work, new Promise<null>((resolve) => setTimeout(resolve, RENDER_WAIT_MS, null))]);
  return (
    <Suspense>
      <UsageView initial={{ by, since: since === null ? null : sinceParam, rows }} />
    </Suspense>
  );
}
