"use client";

// Asks for what opens a sealed share file: its password, or the key a link carries after #k= (the link may
// have lost its fragment on the way). Nothing typed here leaves the page: the worker derives the key locally.
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/Button";
import { Icon } from "@/components/ui/Icon";
import type { ShareSecret } from "../../lib/client/parse-protocol";
import type { LockedShare } from "@/lib/client/load-session";

/** A key pasted as the whole link or its fragment is reduced to the key itself. */
export function keyFromInput(text: string): string {
  const trimmed = text.trim();
  const hash = trimmed.indexOf("#");
  const fragment = hash >= 0 ? trimmed.slice(hash + 1) : trimmed;
  return new URLSearchParams(fragment).get("k") ?? fragment.replace(/^k=/, "");
}

export function UnlockForm({ locked, onUnlock }: { locked: LockedShare; onUnlock: (secret: ShareSecret) => void }) {
  const [value, setValue] = useState("");
  const inputId = useId();
  const isPassword = locked.lock === "password";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value) return;
    onUnlock(isPassword ? { password: value } : { key: keyFromInput(value) });
  };
  return (
    <div className="flex flex-1 items-start justify-center overflow-auto p-6 pt-[12vh]" data-testid="unlock">
      <form className="w-full max-w-md" onSubmit={submit}>
        <div className="flex items-start gap-3">
          <span className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-surface-2 text-muted">
            <Icon name="lock" />
          </span>
          <div className="min-w-0 flex-1">
            <h2 className="text-sm font-semibold">{isPassword ? "This shared session is protected" : "This shared session is sealed"}</h2>
            <p className="mt-1 text-[13px] text-muted">
              {isPassword
                ? "Enter the password you were given with the file."
                : "Its key travels in the link it was shared with (the part after #k=). Paste the link or the key."}{" "}
              It is used in this page only and sent nowhere.
            </p>
            <label htmlFor={inputId} className="mt-4 block text-xs font-medium text-muted">
              {isPassword ? "Password" : "Link or key"}
            </label>
            <input
              id={inputId}
              type={isPassword ? "password" : "text"}
              autoComplete="off"
              autoFocus
              spellCheck={false}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              className="mt-1 h-8 w-full rounded-md border border-border-strong bg-background px-2 font-mono text-[13px] focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
              data-testid="unlock-input"
              aria-invalid={locked.wrong}
              aria-describedby={locked.wrong ? `${inputId}-error` : undefined}
            />
            {locked.wrong && (
              <p id={`${inputId}-error`} role="alert" className="mt-1.5 text-[12px] text-danger" data-testid="unlock-error">
                {locked.message}
              </p>
            )}
            <div className="mt-4">
              <Button variant="primary" type="submit" disabled={!value}>
                Open
              </Button>
            </div>
          </div>
        </div>
      </form>
    </div>
  );
}
