import { describe, expect, it } from "vitest";
import { CANCELLED, type LoadSink } from "@/lib/client/load-session";
import { linearSession } from "@/lib/session/testing/linear-session";
import { warmingSink, type Warm } from "./warming-sink";

/** A store that writes down what it is told. */
function recorder() {
  const told: string[] = [];
  const store: LoadSink = {
    startLoading: () => told.push("start"),
    setTab: () => told.push("tab"),
    shareOpened: () => told.push("share"),
    progress: () => told.push("progress"),
    failLoading: (error) => told.push(`fail: ${error}`),
    sessionReady: (_, entryId) => told.push(`ready ${entryId}`),
    diagnosticsChanged: () => told.push("diagnostics"),
  };
  return { told, store };
}

/** A drawing that waits until `finish` is called, and reports whether it was asked to stop. */
function slowWarm() {
  let finish = () => {};
  let stopped: () => boolean = () => false;
  const warm: Warm = (_, __, cancelled) => {
    stopped = cancelled;
    return new Promise<void>((resolve) => (finish = resolve));
  };
  return { warm, finish: () => finish(), stopped: () => stopped() };
}

const session = linearSession([{ role: "user", content: "one", timestamp: 1 }]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("warmingSink", () => {
  it("passes the load's news on, and shows the session once its drawing is made", async () => {
    const { told, store } = recorder();
    const slow = slowWarm();
    const { sink } = warmingSink(store, slow.warm);
    sink.progress(1, 2);
    sink.sessionReady(session, "m1");
    await settle();
    expect(told).toEqual(["progress"]);
    slow.finish();
    await settle();
    expect(told).toEqual(["progress", "ready m1"]);
  });

  it("Cancel during the drawing stops it and says the load was cancelled; the session is never shown", async () => {
    const { told, store } = recorder();
    const slow = slowWarm();
    const warming = warmingSink(store, slow.warm);
    expect(warming.cancel()).toBe(false); // still reading: the loader's own Cancel applies
    warming.sink.sessionReady(session, null);
    expect(warming.cancel()).toBe(true);
    expect(slow.stopped()).toBe(true);
    slow.finish();
    await settle();
    expect(told).toEqual([`fail: ${CANCELLED}`]);
    expect(warming.cancel()).toBe(false);
  });

  it("a page that goes away stops the drawing quietly", async () => {
    const { told, store } = recorder();
    const slow = slowWarm();
    const warming = warmingSink(store, slow.warm);
    warming.sink.sessionReady(session, null);
    warming.dispose();
    expect(slow.stopped()).toBe(true);
    slow.finish();
    await settle();
    expect(told).toEqual([]);
  });

  it("a drawing that fails still shows the session", async () => {
    const { told, store } = recorder();
    const { sink } = warmingSink(store, () => Promise.reject(new Error("broken")));
    sink.sessionReady(session, null);
    await settle();
    expect(told).toEqual(["ready null"]);
  });
});
