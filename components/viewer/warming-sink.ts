/**
 * A load sink that makes the graph's first drawing (warm-graph.ts) before the
 * store shows the session, and keeps Cancel working meanwhile: the loader is
 * done once the file is read, but the page still shows the loading view until
 * the drawing is made, and Cancel there gives the load up as it would have
 * while reading.
 */
import { CANCELLED, type LoadSink } from "@/lib/client/load-session";
import type { Session } from "@/lib/session";

/** Makes the drawing for `session`; stops early once `cancelled()` says so. */
export type Warm = (session: Session, entryId: string | null, cancelled: () => boolean) => Promise<void>;

export interface WarmingSink {
  sink: LoadSink;
  /** gives up the drawing under way and says the load was cancelled; false when none is under way */
  cancel(): boolean;
  /** the page went away: the drawing stops quietly */
  dispose(): void;
}

export function warmingSink(store: LoadSink, warm: Warm): WarmingSink {
  let state: "reading" | "warming" | "shown" | "stopped" = "reading";
  const show = (session: Session, entryId: string | null) => {
    if (state !== "warming") return;
    state = "shown";
    store.sessionReady(session, entryId);
  };
  const sink: LoadSink = {
    ...store,
    sessionReady(session, entryId) {
      state = "warming";
      // a drawing that fails still shows the session: the graph makes its answers again as it renders
      warm(session, entryId, () => state === "stopped").then(
        () => show(session, entryId),
        () => show(session, entryId),
      );
    },
  };
  return {
    sink,
    cancel() {
      if (state !== "warming") return false;
      state = "stopped";
      store.failLoading(CANCELLED);
      return true;
    },
    dispose() {
      state = "stopped";
    },
  };
}
