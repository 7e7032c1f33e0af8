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

/** Entries a walk visits between two chances to stop (see `Steps`). */
export const STEP_EVERY = 2048;

/**
 * A walk over the entries that stops now and then (a generator yielding every
 * STEP_EVERY entries) and returns its answer at the end: run to the end at once
 * by `drain`, or a slice per task by the loader, so that no task of the page
 * takes as long as the whole walk of a big session.
 */
export type Steps<T> = Generator<void, T, void>;

export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** lastAnswer of a walk: `get` answers at once, `steps` walks in slices and keeps the answer for `get`. */
export function lastAnswerSteps<K, T>(
  walk: (session: Session, key: K) => Steps<T>,
): {
  get(session: Session, key: K): T;
  steps(session: Session, key: K): Steps<T>;
} {
  const answers = new WeakMap<Session, { revision: number; key: K; value: T }>();
  function* steps(session: Session, key: K): Steps<T> {
    const known = answers.get(session);
    if (known && known.revision === session.tree.revision && known.key === key) return known.value;
    const revision = session.tree.revision;
    const value = yield* walk(session, key);
    answers.set(session, { revision, key, value });
    return value;
  }
  return { get: (session, key) => drain(steps(session, key)), steps };
}
