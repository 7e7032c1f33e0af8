// The HTTP answers about fork families: one file's place in its family (GET /api/sessions/family), and where every
// fork of the library left its source (GET /api/sessions/forks). Paths go through the raw endpoint's checks.
import { libraryRoot, sessionRoot } from "./library";
import { forkInfo, libraryFamilies, type ForkInfo } from "./library-families";
import { resolveSessionPath } from "./safe-path";
import { errorResponse } from "./serve-session";

/** ForkInfo as JSON: the inherited ids as a list. */
export interface ForkInfoJson extends Omit<ForkInfo, "inherited"> {
  inherited: string[];
}

export interface ForkPointJson {
  fromEntryId: string | null;
  fromEntry: string | null;
}

const NO_STORE = { "cache-control": "no-store" };

export async function familyResponse(rel: unknown): Promise<Response> {
  try {
    const root = await sessionRoot();
    const resolved = await resolveSessionPath(root.dir, rel);
    const { files, dir } = await libraryRoot();
    const info = await forkInfo(await libraryFamilies(dir, files), resolved.rel);
    if (!info) return Response.json({ error: "the file is not a session of the library", code: "not-found" }, { status: 404, headers: NO_STORE });
    const json: ForkInfoJson = { ...info, inherited: [...info.inherited] };
    return Response.json(json, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

const CONCURRENCY = 4;

export async function forkPointsResponse(): Promise<Response> {
  try {
    const { files, dir } = await libraryRoot();
    const library = await libraryFamilies(dir, files);
    const forks = [...library.families.sourceOf.keys()];
    const out: Record<string, ForkPointJson> = {};
    for (let i = 0; i < forks.length; i += CONCURRENCY) {
      const infos = await Promise.all(forks.slice(i, i + CONCURRENCY).map((file) => forkInfo(library, file)));
      for (const info of infos) if (info?.source) out[info.file] = { fromEntryId: info.source.fromEntryId, fromEntry: info.source.fromEntry };
    }
    return Response.json(out, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
