// What the viewer page should do for its URL: load a library file, a URL or a handed-over upload, or explain why not.
import { formatBytes } from "@/components/ui/format";
import type { LoadTarget } from "./load-session";
import { pendingUpload } from "./pending-upload";
import type { ViewParams } from "./view-params";

export type Plan = { kind: "load"; target: LoadTarget } | { kind: "upload-lost"; name: string } | { kind: "nothing" };

export interface PlanInput {
  params: ViewParams;
  /** the library is the bundled samples (their paths are served from public/samples) */
  samples: boolean;
  /** the sessions directory on the server's disk, for a fork's parentSession */
  sessionsDir: string | null;
  /** the largest file the viewer opens (PI_VIEWER_MAX_FILE_MB); checked before a picked file is read */
  maxFileBytes?: number;
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
  const target: LoadTarget = { request: { kind: "file", file }, source: { kind: "upload", name: file.name, size: file.size }, fileName: file.name, entryId: null, tab: null };
  const refusal = fileTooLarge(file.size, maxFileBytes);
  return refusal ? { ...target, refusal } : target;
}

export function planFor({ params, samples, sessionsDir, maxFileBytes }: PlanInput): Plan {
  const restore = { entryId: params.entry, tab: params.tab };
  if (params.upload) {
    const file = pendingUpload(params.upload);
    return file ? { kind: "load", target: { ...uploadTarget(file, maxFileBytes), ...restore } } : { kind: "upload-lost", name: params.upload };
  }
  if (params.file) {
    const url = `/api/sessions/raw?path=${encodeURIComponent(params.file)}`;
    const source = samples
      ? { kind: "sample" as const, path: params.file }
      : { kind: "server" as const, path: params.file, ...(sessionsDir ? { absolutePath: `${sessionsDir}/${params.file}` } : {}) };
    return { kind: "load", target: { request: { kind: "url", url }, source, fileName: baseName(params.file), ...restore } };
  }
  if (params.src) {
    return { kind: "load", target: { request: { kind: "url", url: params.src }, source: { kind: "url", url: params.src }, fileName: baseName(params.src.split(/[?#]/)[0]!), ...restore } };
  }
  return { kind: "nothing" };
}
