"use client";

import { useEffect, useState } from "react";
import { loadCatalogue, type ModelCatalogue } from "@/lib/models/model-catalogue";

let loaded: ModelCatalogue | null = null;

/** pi's model catalogue, loaded once on first use (its own chunk); null until it is there. */
export function useModelCatalogue(): ModelCatalogue | null {
  const [catalogue, setCatalogue] = useState(loaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadCatalogue().then((c) => {
      loaded = c;
      if (live) setCatalogue(c);
    });
    return () => {
      live = false;
    };
  }, []);
  return catalogue;
}
