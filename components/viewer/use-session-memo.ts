"use client";

import { useMemo, type DependencyList } from "react";
import type { Session } from "@/lib/session";
import { useViewer } from "./store";

/**
 * A value computed from the open session, and computed again when the session
 * is replaced or grows (the store's `doc` snapshot is replaced then) or when
 * `deps` change. Null while no session is open. With `diagnostics`, also when the
 * session's diagnostics grow (the schema check arrives after the load).
 */
export function useSessionMemo<T>(compute: (session: Session) => T, deps: DependencyList, diagnostics = false): T | null {
  const doc = useViewer((s) => s.doc);
  const diagnosticsRevision = useViewer((s) => (diagnostics ? s.diagnosticsRevision : 0));
  // a new token whenever one of the caller's deps changes (React compares them as it does any deps)
  // eslint-disable-next-line react-hooks/use-memo, react-hooks/exhaustive-deps
  const token = useMemo(() => ({}), deps);
  // `compute` is new at every render; the token says when it computes something else
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (doc ? compute(doc.session) : null), [doc, diagnosticsRevision, token]);
}
