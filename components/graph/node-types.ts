/** React Flow node types, at module scope so React Flow never sees a new object. */
import type { NodeTypes } from "@xyflow/react";
import { CursorNode } from "./CursorNode";
import { EntryNode } from "./EntryNode";
import { SegmentNode } from "./SegmentNode";

export const nodeTypes: NodeTypes = { entry: EntryNode, segment: SegmentNode, cursor: CursorNode };
