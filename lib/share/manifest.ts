// What a share file says about the session it carries: the first line of its (compressed, maybe sealed) data,
// before the session's own lines. Read back from a file someone sent, so it is checked like any input.
import { z } from "zod";

export const SHARE_FORMAT = "pi-session-viewer/share";

export const SHARE_SCOPES = ["session", "fork", "path"] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

/** The inspector's tabs, in order: a share remembers the one that was open. */
export const INSPECTOR_TABS = ["entry", "path", "context", "stats"] as const;
export type InspectorTab = (typeof INSPECTOR_TABS)[number];

const redactionRule = z.object({
  name: z.string().max(200),
  kind: z.enum(["built-in", "literal", "regex", "home-path"]),
  description: z.string().max(2000),
  count: z.number().int().nonnegative(),
});

const manifestSchema = z.object({
  format: z.literal(SHARE_FORMAT),
  version: z.literal(1),
  scope: z.enum(SHARE_SCOPES),
  /** the name the session's file had (a fork: the name pi gives the fork), masked by the rules the lines were */
  fileName: z.string().max(1000),
  title: z.string().max(1000).nullable(),
  /** the entry selected when the file opens, and the inspector tab */
  entryId: z.string().max(65_536).nullable(),
  tab: z.enum(INSPECTOR_TABS).nullable(),
  createdAt: z.string().max(100),
  generator: z.string().max(200),
  /** what was masked, by rule: names and counts only, never the masked text */
  redaction: z.object({ rules: z.array(redactionRule).max(1000), total: z.number().int().nonnegative() }).nullable(),
  /** images replaced by a note to make the file smaller */
  images: z.object({ dropped: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }).nullable(),
  /** the session data after the manifest line: its lines and UTF-8 bytes */
  lines: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});

export type ShareManifest = z.infer<typeof manifestSchema>;
export type ShareRedaction = NonNullable<ShareManifest["redaction"]>;

export class ShareManifestError extends Error {}

/** The manifest line of a share file's data, checked; the error says what is wrong with it. */
export function readManifest(line: string): ShareManifest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ShareManifestError("The shared data does not start with a manifest (line 1 is not JSON).");
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ShareManifestError(`The shared data's manifest is not one this viewer reads: ${issue.path.join(".") || "(root)"}: ${issue.message}.`);
  }
  return parsed.data;
}
