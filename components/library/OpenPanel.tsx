"use client";

// The ways to open a session that is not in the library: a file from disk (picker or drop) or a URL.
import { useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/Button";
import { Icon } from "@/components/ui/Icon";
import { SessionFileInput } from "@/components/ui/SessionFileInput";

export function OpenPanel({ onFile, onUrl }: { onFile: (file: File) => void; onUrl: (url: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState("");
  const [urlError, setUrlError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = url.trim();
    let parsed: URL;
    try {
      parsed = new URL(value, window.location.href);
    } catch {
      setUrlError("That is not a URL.");
      return;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      setUrlError("Only http and https URLs can be opened.");
      return;
    }
    setUrlError(null);
    onUrl(value);
  };

  return (
    <section aria-label="Open a session" className="grid gap-3 sm:grid-cols-[1.1fr_1fr]">
      <button
        type="button"
        onClick={() => input.current?.click()}
        className="group flex items-center gap-3 rounded-lg border border-dashed border-border-strong bg-surface px-4 py-3 text-left transition-colors hover:border-accent hover:bg-accent-soft"
      >
        <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-md border border-border bg-background text-muted group-hover:text-accent">
          <Icon name="upload" />
        </span>
        <span className="min-w-0">
          <span className="block text-[13px] font-medium">Open a session file…</span>
          <span className="block text-xs text-muted">or drop a .jsonl anywhere on this page. It is read in your browser, never uploaded.</span>
        </span>
      </button>
      <SessionFileInput ref={input} onFile={onFile} />
      <form onSubmit={submit} className="flex flex-col justify-center gap-1.5 rounded-lg border border-border px-4 py-3">
        <label htmlFor="open-url" className="flex items-center gap-1.5 text-xs font-medium text-muted">
          <Icon name="link" size={14} /> Open from URL
        </label>
        <div className="flex gap-2">
          <input
            id="open-url"
            type="text"
            inputMode="url"
            spellCheck={false}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://…/session.jsonl"
            aria-invalid={urlError !== null}
            aria-describedby={urlError ? "open-url-error" : undefined}
            className="h-8 min-w-0 flex-1 rounded-md border border-border-strong bg-background px-2.5 font-mono text-xs placeholder:font-sans placeholder:text-subtle focus:border-accent focus:outline-none"
          />
          <Button type="submit" disabled={!url.trim()}>
            Open
          </Button>
        </div>
        {urlError && (
          <p id="open-url-error" className="text-xs text-danger">
            {urlError}
          </p>
        )}
      </form>
    </section>
  );
}
