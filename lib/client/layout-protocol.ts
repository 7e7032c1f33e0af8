/** A display tree's shape (TreeOrder's parents, transferred): the worker lays it out. */
export interface LayoutRequest {
  id: number;
  parents: Int32Array;
}

/** Each node's x (tidyXs), by its index in the request's parents. */
export interface LayoutReply {
  id: number;
  xs: Float64Array;
}
