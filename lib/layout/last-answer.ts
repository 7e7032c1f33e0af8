import type { Session } from "../session";

/**
 * `compute` with its last answer per session kept while the session's tree is
 * unchanged: the graph asks the same question on every render, and the loader
 * asks it ahead of the first one (components/graph/warm-graph.ts).
 */
export function lastAnswer<K, T>(compute: (session: Session, key: K) => T): (session: Session, key: K) => T {
  const answers = new WeakMap<Session, { revision: number; key: K; value: T }>();
  return (session, key) => {
    const known = answers.get(session);
    if (known && known.revision === session.tree.revision && known.key === key) return known.value;
    const value = compute(session, key);
    answers.set(session, { revision: session.tree.revision, key, value });
    return value;
  };
}
