/**
 * The open comparison, computed once per (session, A, B, revision) and shared
 * by the compare pane and every graph card (which asks for its role in it).
 * Not responsible for drawing.
 */
import { compareA, compareB } from "@/components/viewer/store";
import type { ViewerState } from "@/components/viewer/viewer-state";
import { compareNodes, type Comparison, type Session } from "@/lib/session";

/** What an entry is in the open comparison; the graph marks it accordingly. */
export type CompareRole = "a" | "b" | "ancestor" | "segment-a" | "segment-b";

export type ComparisonView =
  { ok: true; result: Comparison; roles: ReadonlyMap<string, CompareRole> } | { ok: false; error: unknown; roles: ReadonlyMap<string, CompareRole> };

let cached: { session: Session; a: string; b: string; revision: number; view: ComparisonView; complete: boolean; reads: object | null } | null = null;

function rolesOf(result: Comparison): Map<string, CompareRole> {
  const roles = new Map<string, CompareRole>();
  for (const id of result.a.segment) roles.set(id, "segment-a");
  for (const id of result.b.segment) roles.set(id, "segment-b");
  if (result.commonAncestorId) roles.set(result.commonAncestorId, "ancestor");
  roles.set(result.b.id, "b");
  roles.set(result.a.id, "a");
  return roles;
}

/**
 * The comparison of `a` and `b`, kept while the session, its revision and the two are the same. A session read
 * on demand compares light entries until the content the comparison asks for is read (CompareView reads it);
 * such a view is kept only until the next content read (`reads`: the store's contentReads) ends or starts.
 */
export function comparisonView(session: Session, a: string, b: string, revision: number, reads: object | null = null): ComparisonView {
  if (cached && cached.session === session && cached.a === a && cached.b === b && cached.revision === revision && (cached.complete || cached.reads === reads))
    return cached.view;
  let view: ComparisonView;
  let complete = true;
  try {
    const { value: result, lines } = session.tree.readLightly(() => compareNodes(session, a, b));
    complete = lines.length === 0;
    view = { ok: true, result, roles: rolesOf(result) };
  } catch (error) {
    view = {
      ok: false,
      error,
      roles: new Map([
        [a, "a"],
        [b, "b"],
      ] as const),
    };
  }
  cached = { session, a, b, revision, view, complete, reads };
  return view;
}

/** The open comparison of the store's state, or null when none is open. */
export function openComparison(state: ViewerState): ComparisonView | null {
  const a = compareA(state);
  const b = compareB(state);
  if (!state.doc || a === null || b === null) return null;
  return comparisonView(state.doc.session, a, b, state.doc.revision, state.contentReads);
}

/** An entry's role in the open comparison (a store selector: cheap once the comparison is cached). */
export function compareRoleOf(state: ViewerState, id: string): CompareRole | null {
  return openComparison(state)?.roles.get(id) ?? null;
}
