// What the viewer page should do for its URL: load a library file, a URL or a handed-over upload, or explain why not.
import { formatBytes } from "@/components/ui/format";
import type { LoadTarget, LockedShare } from "@/lib/client/load-session";
import { pendingUpload } from "@/lib/client/pending-upload";
import type { ViewParams } from "./view-params";

export type Plan =
  | { kind: "load"; target: LoadTarget }
  | { kind: "upload-lost"; name: string }
  | { kind: "nothing" }
  /** a sealed share: ask for the password or key, then load `target` with it */
  | { kind: "locked"; target: LoadTarget; locked: LockedShare };

export interface PlanInput {
  params: ViewParams;
  /** the library is the bundled samples (their paths are served from public/samples) */
  samples: boolean;
  /** where the file (`params.file`) is on its machine's disk, for a fork's parentSession */
  fileOnDisk: string | null;
  /** the largest file the viewer opens (PI_VIEWER_MAX_FILE_MB); checked before a picked file is read */
  maxFileBytes?: number;
  /** the page is a share file: its payload text (lib/share) */
  share?: string | null;
  /** the key of a sealed share from the link's fragment (#k=…) */
  shareKey?: string | null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1) || path;
}

/** Why a file of `size` bytes is not opened, or null. */
export function fileTooLarge(size: number, maxFileBytes: number | undefined): string | null {
  if (maxFileBytes === undefined || size <= maxFileBytes) return null;
  return `This file is ${formatBytes(size)}; the viewer opens files up to ${formatBytes(maxFileBytes)}. Set PI_VIEWER_MAX_FILE_MB when starting the viewer to raise the limit.`;
}

export function uploadTarget(file: File, maxFileBytes?: number): LoadTarget {
  const target: LoadTarget = {
    request: { kind: "file", file },
    source: { kind: "upload", name: file.name, size: file.size, file },
    fileName: file.name,
    entryId: null,
    tab: null,
  };
  const refusal = fileTooLarge(file.size, maxFileBytes);
  return refusal ? { ...target, refusal } : target;
}

export function planFor({ params, samples, fileOnDisk, maxFileBytes, share, shareKey }: PlanInput): Plan {
  const restore = { entryId: params.entry, tab: params.tab };
  const secret = shareKey ? { key: shareKey } : undefined;
  if (share)
    return { kind: "load", target: { request: { kind: "share", text: share, secret }, source: { kind: "share" }, fileName: "shared session", ...restore } };
  if (params.upload) {
    const file = pendingUpload(params.upload);
    return file ? { kind: "load", target: { ...uploadTarget(file, maxFileBytes), ...restore } } : { kind: "upload-lost", name: params.upload };
  }
  if (params.file) {
    const url = `/api/sessions/raw?path=${encodeURIComponent(params.file)}`;
    const light = `/api/sessions/light?path=${encodeURIComponent(params.file)}`;
    const source = samples
      ? { kind: "sample" as const, path: params.file }
      : { kind: "server" as const, path: params.file, ...(fileOnDisk ? { absolutePath: fileOnDisk } : {}) };
    return { kind: "load", target: { request: { kind: "url", url, light }, source, fileName: baseName(params.file), ...restore } };
  }
  if (params.src) {
    return {
      kind: "load",
      target: {
        request: { kind: "url", url: params.src, secret },
        source: { kind: "url", url: params.src },
        fileName: baseName(params.src.split(/[?#]/)[0]!),
        ...restore,
      },
    };
  }
  return { kind: "nothing" };
}
