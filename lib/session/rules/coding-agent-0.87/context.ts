import type { SessionTree } from "../session-tree";
import { SessionQueryError, type ContextMessage, type SessionContext, type TreeEntry } from "../../types";
import { contextWith, ca086Messages } from "../coding-agent-0.86/context";

/**
 * The coding agent's context from 0.87 on (pi-coding-agent 0.87.1 and 1.6.0):
 * as 0.86, but `context_edit` entries on the context replace the content of an
 * earlier entry's messages (null replacement: the messages are dropped), and
 * only the compaction at the head of the context yields messages: an older
 * compaction inside the kept range no longer adds a second summary.
 */

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** projectContextEntry (≥ 0.87): an entry's messages under its latest context_edit on the context. */
export function projectEdited(entry: TreeEntry, edit: TreeEntry | undefined): ContextMessage[] {
  const messages = ca086Messages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  if (replacement === undefined) throw new SessionQueryError("invalid", "TypeError: Cannot read properties of undefined (reading 'content')");
  const content = (replacement as { content?: unknown }).content;
  return messages.map((item) => {
    const role = item.message.role;
    if (!EDITABLE_ROLES.has(role as string)) return item;
    const replaced = (role === "assistant" || role === "toolResult") && typeof content === "string" ? [{ type: "text", text: content }] : content;
    return { entryId: item.entryId, source: "synthesized", editedBy: edit.id, message: { ...item.message, content: replaced } };
  });
}

/** The latest context_edit per target among the context entries (later ones on the branch win). */
export function contextEdits(entries: readonly TreeEntry[]): Map<unknown, TreeEntry> {
  const edits = new Map<unknown, TreeEntry>();
  for (const entry of entries) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  return edits;
}

/** buildSessionContext (≥ 0.87) with `id` as the leaf; null: before any entry. */
export function editedCaContext(tree: SessionTree, id: string | null): SessionContext {
  return contextWith(tree, id, (entries) => {
    const edits = contextEdits(entries);
    return entries.flatMap((entry, index) => {
      if (entry.type === "compaction" && index > 0) return [];
      const edit = edits.get(entry.id);
      return projectEdited(tree.full(entry), edit && tree.full(edit));
    });
  });
}
