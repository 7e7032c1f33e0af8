"use client";

import { useEffect, useMemo, useRef, useState, type DependencyList } from "react";
import { TextComingError, type Session } from "@/lib/session";
import { useViewer, viewer } from "./store";

/**
 * A value computed from the open session, and computed again when the session
 * is replaced or grows (the store's `doc` snapshot is replaced then) or when
 * `deps` change. Null while no session is open. With `diagnostics`, also when the
 * session's diagnostics grow (the schema check arrives after the load).
 *
 * A session whose content is read from its file on demand (an upload, a library
 * file) answers first from its light entries (long strings cut), while the
 * content the answer asked for is read; then the value is computed again, in
 * full. A search asks a batch at a time, so it fills in batch by batch.
 *
 * A session shown before its text has all come (a library file restored from its snapshot) reads the entries
 * not come yet from the server a frame at a time, never at once here: an answer that would read one is answered
 * again once the frame was read (readRefused), and one that asked for more than a few frames so once the text
 * came (what it computed meanwhile says it is waiting: TextComingError).
 */
export interface MemoOptions {
  /** computed again when the session's diagnostics grow too */
  diagnostics?: boolean;
  /** light entries answer it (it reads no content, or only the shape of it): content is never read for it */
  light?: boolean;
}

export function useSessionMemo<T>(compute: (session: Session) => T, deps: DependencyList, options: MemoOptions = {}): T | null {
  const { diagnostics = false, light = false } = options;
  const doc = useViewer((s) => s.doc);
  const diagnosticsRevision = useViewer((s) => (diagnostics ? s.diagnosticsRevision : 0));
  // a new token whenever one of the caller's deps changes (React compares them as it does any deps)
  // eslint-disable-next-line react-hooks/use-memo, react-hooks/exhaustive-deps
  const token = useMemo(() => ({}), deps);
  /** bumped when content this value asked for has been read */
  const [reads, setReads] = useState(0);
  /** how many times this answer had frames read for it (readRefused), for the doc and deps it was computed for */
  const rounds = useRef({ doc, token, n: 0 });
  // `compute` is new at every render; the token says when it computes something else
  const answer = useMemo(() => {
    if (!doc) return null;
    const tree = doc.session.tree;
    // a session shown before its text came: what would read a frame not here is answered again once it was read
    try {
      const { value, exceeded } = tree.readingAtMost(0, () => {
        if (!tree.readsOnDemand) return { value: compute(doc.session), lines: NONE };
        const answer = tree.readLightly(() => compute(doc.session));
        return light ? { value: answer.value, lines: NONE } : answer;
      });
      return { ...value, waiting: exceeded };
    } catch (error) {
      if (error instanceof TextComingError) return { value: null, lines: NONE, waiting: true };
      throw error;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, diagnosticsRevision, token, reads]);
  useEffect(() => {
    if (!doc || !answer?.waiting) return;
    let current = true;
    const again = () => current && setReads((n) => n + 1);
    const tree = doc.session.tree;
    const came = () => void tree.textCame().then(again);
    if (rounds.current.doc !== doc || rounds.current.token !== token) rounds.current = { doc, token, n: 0 };
    if (tree.textRefused && rounds.current.n++ < EARLY_ROUNDS) tree.readRefused().then(again, came);
    else came();
    return () => {
      current = false;
    };
  }, [doc, token, answer]);
  useEffect(() => {
    if (!doc || !answer?.lines.length || answer.waiting) return;
    let current = true;
    const done = viewer.readingContent();
    doc.session.tree.readContent(answer.lines).then(
      () => {
        done();
        if (current) setReads((n) => n + 1);
      },
      (error: unknown) => {
        done(error);
      },
    );
    return () => {
      current = false;
    };
  }, [doc, answer]);
  return answer ? answer.value : null;
}

const NONE: number[] = [];
/** times an answer has frames of entries whose text has not come read for it before it waits for the text */
const EARLY_ROUNDS = 8;
