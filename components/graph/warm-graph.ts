/**
 * The graph's first drawing, made ahead in small tasks. Each step of the graph
 * pipeline that walks every entry (the shape, the model marks, the fold walk,
 * the segments' summaries, the active path) runs in a task of its own while
 * the page still shows the loading view, and leaves its answer where the
 * render finds it. The first render then only lays out and draws: the page is
 * never busy for the sum of the steps at once.
 */
import type { ViewerState } from "@/components/viewer/store";
import type { Session } from "@/lib/session";
import { sessionRewinds } from "@/lib/layout/leaf-history";
import { cutFromContext, modelSwitches, pathIds } from "@/lib/layout/marks";
import { visibilityOf } from "@/lib/layout/tree-filter";
import { summarise } from "./flow-elements";
import { displayFor, factsOf, foldsFor, layoutFor, shownLeaf } from "./graph-model";

/** Time one task may take before it hands the page back (the summaries of many segments are made in slices). */
const SLICE_MS = 40;

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
  const leafId = shownLeaf(session, state.historyStep).leafId;
  const selectedId = entryId && session.tree.get(entryId) ? entryId : session.leafId;
  const steps: (() => unknown)[] = [
    () => session.shape(),
    () => modelSwitches(session),
    () => pathIds(session, leafId),
    () => sessionRewinds(session, null),
    () => state.contextOverlay && cutFromContext(session, selectedId),
  ];
  for (const step of steps) {
    await nextTask();
    if (cancelled()) return;
    step();
  }
  await nextTask();
  if (cancelled()) return;
  const visible = visibilityOf(session, state.treeFilter);
  const plan = foldsFor(session, state.collapsed, leafId, session.labels(), visible);
  const facts = factsOf(session);
  let started = performance.now();
  for (const item of plan.items) {
    if (performance.now() - started > SLICE_MS) {
      await nextTask();
      if (cancelled()) return;
      started = performance.now();
    }
    if (item.kind === "entry") facts.describe(item.id);
    else summarise(item.ids, facts);
  }
  await nextTask();
  if (cancelled()) return;
  layoutFor(session, displayFor(plan, state.expandedSegments));
}
