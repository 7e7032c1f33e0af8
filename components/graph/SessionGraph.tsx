"use client";

/**
 * The session graph pane: pi's entry tree drawn top-down, folded where it is
 * long and linear, with the leaf, the active path and the selection marked.
 * Reads everything from the viewer store; mount it anywhere with a size.
 */
import { ReactFlowProvider } from "@xyflow/react";
import { GraphCanvas } from "./GraphCanvas";
import { useGraphModel } from "./use-graph-model";

export function SessionGraph({ className = "" }: { className?: string }) {
  const model = useGraphModel();
  return (
    <section aria-label="Session graph" className={`relative h-full min-h-0 w-full ${className}`}>
      {model === null ? null : model.session.tree.size === 0 ? (
        <p className="flex h-full items-center justify-center text-sm text-muted">This session has no entries yet.</p>
      ) : (
        <ReactFlowProvider>
          <GraphCanvas model={model} />
        </ReactFlowProvider>
      )}
    </section>
  );
}
