"use client";

import { useMemo, type DependencyList } from "react";
import type { Session } from "@/lib/session";
import { useViewer } from "./store";

/**
 * A value computed from the open session, and computed again when the session
 * is replaced or grows (a live tail adds lines to the same Session object, so
 * its identity never says so: the store's revision does) or when `deps`
 * change. Null while no session is open. With `diagnostics`, also when the
 * session's diagnostics grow (the schema check arrives after the load).
 */
export function useSessionMemo<T>(compute: (session: Session) => T, deps: DependencyList, diagnostics = false): T | null {
  const session = useViewer((s) => s.session);
  const revision = useViewer((s) => s.revision);
  const diagnosticsRevision = useViewer((s) => (diagnostics ? s.diagnosticsRevision : 0));
  // a new token whenever one of the caller's deps changes (React compares them as it does any deps)
  // eslint-disable-next-line react-hooks/use-memo, react-hooks/exhaustive-deps
  const token = useMemo(() => ({}), deps);
  // the one place the store's revisions stand in for the Session's growth; `compute` is new at every render and
  // the token says when it computes something else
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (session ? compute(session) : null), [session, revision, diagnosticsRevision, token]);
}
