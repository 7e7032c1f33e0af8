/**
 * The graph's first drawing, made ahead in small tasks. Each step of the graph
 * pipeline that walks every entry (the shape, the model marks, the fold walk,
 * the segments' summaries, the active path, the layout, the minimap's cards) runs in a task of its own while
 * the page still shows the loading view, and leaves its answer where the
 * render finds it. The first render then only lays out and draws: the page is
 * never busy for the sum of the steps at once.
 */
import type { ViewerState } from "@/components/viewer/viewer-state";
import type { Session } from "@/lib/session";
import { sessionRewinds } from "@/lib/layout/leaf-history";
import type { Steps } from "@/lib/layout/last-answer";
import { cutFromContext, modelSwitchSteps, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { countSteps } from "./flow-elements";
import { miniCardsFor } from "./mini-cards";
import { prepareLayout, tidyXsOffThread } from "@/lib/client/layout-client";
import { displayFor, factsOf, foldSteps, foldsFor, layoutAhead, layoutFor, shownLeaf } from "./graph-model";

/** Time one task may take before it hands the page back (the summaries of many segments are made in slices). */
const SLICE_MS = 40;
/** cards from which the first layout is made by the layout worker: below, in the page takes less than the trip */
const WORKER_LAYOUT_NODES = 2000;

function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Makes the first drawing's answers for `session` under the view `state`, `entryId` to be selected (as
 * sessionReady selects it); stops early once `cancelled()` says so.
 */
export async function warmGraph(session: Session, state: ViewerState, entryId: string | null, cancelled: () => boolean): Promise<void> {
  // (a display has at most a card per entry: a smaller session is laid out in the page)
  if (session.tree.size >= WORKER_LAYOUT_NODES) prepareLayout();
  const leafId = shownLeaf(session, state.historyStep).leafId;
  const selectedId = entryId && session.tree.get(entryId) ? entryId : session.leafId;
  let started = performance.now();
  /** Hands the page back when this task has run long enough; false once the load is given up. */
  const pause = async (): Promise<boolean> => {
    if (performance.now() - started < SLICE_MS) return !cancelled();
    await nextTask();
    started = performance.now();
    return !cancelled();
  };
  /** Runs a walk a slice per task. */
  const walk = async <T>(steps: Steps<T>): Promise<boolean> => {
    for (;;) {
      if (steps.next().done) return true;
      if (!(await pause())) return false;
    }
  };
  // a deep path is walked in one task and its marks made in the next (each is a pass over the whole path)
  const walked = (id: string | null, reader?: "ca") => () => {
    if (id !== null && session.tree.get(id)) safely(() => session.sharedBranch(id, reader));
  };
  const steps: (() => unknown)[] = [
    // the page's first number formatted loads the locale's data (tens of ms); the cards format their counts with it
    () => (0).toLocaleString("en-US"),
    () => session.shape(),
    walked(leafId),
    () => pathIds(session, leafId),
    () => sessionRewinds(session, null),
    walked(state.contextOverlay ? selectedId : null, "ca"),
    () => state.contextOverlay && cutFromContext(session, selectedId),
  ];
  for (const step of steps) {
    if (!(await pause())) return;
    step();
  }
  if (!(await walk(modelSwitchSteps(session)))) return;
  const visible = visibilityOf(session, state.treeFilter);
  const folds = foldSteps(session, state.collapsed, leafId, session.labels(), visible);
  if (!(await walk(folds))) return;
  const plan = foldsFor(session, state.collapsed, leafId, session.labels(), visible);
  const facts = factsOf(session);
  // (an entry's card, and a run's first and last words, are described when the window around the viewport makes
  // them: a big session keeps only its most recent entry objects, so describing every card here would read most
  // of them twice)
  for (const item of plan.items) {
    if (item.kind !== "run") continue;
    if (!(await pause())) return;
    if (!(await walk(countSteps(item.ids, facts, item.slots)))) return;
  }
  if (!(await pause())) return;
  const display = displayFor(plan, state.expandedSegments);
  // a big tidy tree is one walk that cannot be cut into steps: it is laid out off the page's thread
  if (display.nodes.size >= WORKER_LAYOUT_NODES) await layoutAhead(session, display, tidyXsOffThread);
  if (cancelled()) return;
  const layout = layoutFor(session, display);
  // the minimap's cards and the first render each get a task of their own
  await nextTask();
  if (cancelled()) return;
  miniCardsFor(display, layout, facts, leafId, pathIds(session, leafId));
  await nextTask();
}

/** Runs `walk` for what it leaves in the session's caches; a path pi cannot walk is answered (as an error) where it is asked. */
function safely(walk: () => unknown): void {
  try {
    walk();
  } catch {
    // the question that needs this path says what went wrong
  }
}
