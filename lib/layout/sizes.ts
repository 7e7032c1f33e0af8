/**
 * Node sizes and spacing of the graph, in canvas pixels. Constants, never
 * measured from the DOM, so the layout stays a pure function of the tree.
 */

export const NODE_WIDTH = 216;
export const NODE_HEIGHT = 58;
/** HX `leaf` entries are drawn as a small cursor marker inside a regular slot. */
export const CURSOR_WIDTH = 112;
export const CURSOR_HEIGHT = 24;

/** horizontal distance between sibling centres, and vertical distance between levels */
export const COLUMN_GAP = 20;
export const ROW_GAP = 34;
export const SLOT_WIDTH = NODE_WIDTH + COLUMN_GAP;
export const SLOT_HEIGHT = NODE_HEIGHT + ROW_GAP;

/** chains of single-child entries longer than this fold into one segment */
export const FOLD_THRESHOLD = 6;
