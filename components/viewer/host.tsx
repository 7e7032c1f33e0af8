"use client";

// Where the viewer runs, which decides what it may offer: the local server (library, live tail, raw files),
// a static host (no server of ours: uploads and ?src= only), or a share file opened from disk (its own data only).
import { createContext, useContext } from "react";

export type ViewerHost = "server" | "static" | "share";

const HostContext = createContext<ViewerHost>("server");

export const ViewerHostProvider = HostContext.Provider;

export function useViewerHost(): ViewerHost {
  return useContext(HostContext);
}
