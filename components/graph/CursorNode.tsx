"use client";

/**
 * An HX `leaf` entry: not a message but a move of the cursor, drawn as a small
 * marker with a dashed edge to where it moved the leaf.
 */
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { CursorFlowNode } from "./flow-elements";
import { Icon } from "./icons";
import { cardState, HIDDEN_HANDLE } from "./node-style";

function CursorNodeView({ data }: NodeProps<CursorFlowNode>) {
  const where = data.target === null ? "start" : data.target;
  return (
    <div
      data-entry-id={data.id}
      data-kind="leaf"
      data-leaf={data.leaf ? "true" : "false"}
      data-active-path={data.activePath ? "true" : "false"}
      data-selected={data.selected ? "true" : "false"}
      data-ghost={data.ghost ? "true" : undefined}
      title={
        data.target === null ? "leaf move: back to before the first entry" : `leaf move to ${data.target}${data.targetMissing ? " (not in the file)" : ""}`
      }
      className={`relative flex h-full w-full cursor-pointer items-center gap-1 rounded-full border border-dashed px-2 text-[10px] ${cardState(data)} !border-pink-400 dark:!border-pink-600`}
    >
      <Handle type="target" position={Position.Top} id="in" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="source" position={Position.Left} id="move-out" isConnectable={false} className={HIDDEN_HANDLE} />
      <Handle type="source" position={Position.Bottom} id="out" isConnectable={false} className={HIDDEN_HANDLE} />
      <Icon name="leaf" className="h-3 w-3 text-pink-600 dark:text-pink-400" />
      <span className="text-muted">move</span>
      <span className={`truncate font-mono ${data.targetMissing ? "text-red-600 line-through dark:text-red-400" : ""}`}>→ {where}</span>
    </div>
  );
}

export const CursorNode = memo(CursorNodeView);
