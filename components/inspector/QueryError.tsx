/** A question pi cannot answer here (a parent cycle, a message without message), said plainly instead of crashing. */
import { SessionQueryError } from "@/lib/session";

export function QueryError({ error, what }: { error: unknown; what: string }) {
  const kind = error instanceof SessionQueryError ? error.kind : "error";
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div
      role="alert"
      className="m-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-[12.5px] text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
    >
      <p className="font-semibold">
        No {what} here{kind === "cycle" ? ": parent cycle" : kind === "invalid" ? ": pi throws" : ""}
      </p>
      <p className="mt-0.5 font-mono text-[12px] break-words">{message}</p>
    </div>
  );
}
