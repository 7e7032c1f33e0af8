// The HTTP answers about fork families: one file's place in its family (GET /api/sessions/family), and where every
// fork of the library left its source (GET /api/sessions/forks). Paths go through the raw endpoint's checks.
import { familyParams } from "@/lib/library/library-params";
import type { SessionFamily } from "@/lib/library/session-family";
import { displayTitle } from "@/lib/session/features/title";
import { checkedParams } from "./checked-params";
import { libraryRoot } from "./library";
import { forkInfo, libraryFamilies, type ForkInfo, type LibraryFamilies } from "./library-families";
import { errorResponse } from "./serve-session";

export interface ForkPointJson {
  fromEntryId: string | null;
  fromEntry: string | null;
}

const NO_STORE = { "cache-control": "no-store" };

/** GET /api/sessions/family?path=…, its parameters checked (lib/library/library-params.ts): a bad one is a 400 naming it. */
export async function familyParamsResponse(params: URLSearchParams): Promise<Response> {
  const checked = checkedParams(familyParams, params);
  return checked instanceof Response ? checked : familyResponse(checked.path);
}

export async function familyResponse(rel: unknown): Promise<Response> {
  try {
    const root = await libraryRoot();
    const resolved = await root.resolve(rel);
    const library = await libraryFamilies(root.dir, root.files);
    const info = await forkInfo(library, resolved.rel);
    if (!info) return Response.json({ error: "the file is not a session of the library", code: "not-found" }, { status: 404, headers: NO_STORE });
    return Response.json(familyJson(library, info), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

function familyJson(library: LibraryFamilies, info: ForkInfo): SessionFamily {
  const name = (file: string) => {
    const summary = library.files.get(file)?.summary;
    return summary ? displayTitle(summary) : null;
  };
  const { source, missingSource } = info;
  return {
    file: info.file,
    root: info.root,
    source: source && {
      path: source.file,
      name: name(source.file),
      by: source.by,
      fromEntryId: source.fromEntryId,
      fromEntry: source.fromEntry,
      leafId: source.leafId,
    },
    missingSource: missingSource && (missingSource.path ?? missingSource.sessionId),
    forks: info.forks.map((path) => ({ path, name: name(path) })),
    inherited: [...info.inherited],
  };
}

const CONCURRENCY = 4;

export async function forkPointsResponse(): Promise<Response> {
  try {
    const { files, dir } = await libraryRoot();
    const library = await libraryFamilies(dir, files);
    const forks = [...library.families.sourceOf.keys()];
    const out: Record<string, ForkPointJson> = {};
    for (let i = 0; i < forks.length; i += CONCURRENCY) {
      // a fork whose lines cannot be read now (gone since it was listed, unreadable) is left out, not the answer
      const infos = await Promise.all(forks.slice(i, i + CONCURRENCY).map((file) => forkInfo(library, file).catch(() => null)));
      for (const info of infos) if (info?.source) out[info.file] = { fromEntryId: info.source.fromEntryId, fromEntry: info.source.fromEntry };
    }
    return Response.json(out, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
