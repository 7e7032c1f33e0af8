"use client";

/**
 * "Share…": writes one HTML file that opens this viewer on the session anywhere, from disk, with no server
 * and no network (lib/share). The sender chooses what goes in (the whole file, the fork at the selected
 * entry, or its path alone), sees what the redaction rules will mask and where before anything is written,
 * may drop images, and may seal the data with a password or a random key that travels in the link.
 */
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from "react";
import { downloadText } from "@/components/inspector/download";
import { Button } from "@/components/ui/Button";
import { formatBytes } from "@/components/ui/format";
import { Icon } from "@/components/ui/Icon";
import { useViewerHost } from "@/components/viewer/host";
import { sourcePathOf } from "@/lib/client/session-source";
import { useViewer } from "@/components/viewer/store";
import { shareFileName } from "@/lib/export/file-names";
import { compileRedaction, type RedactionOptions } from "@/lib/export/redaction-rules";
import type { ShareScope } from "@/lib/share/manifest";
import type { SharePreview } from "@/lib/share/preview";
import { scopeProblem } from "@/lib/share/share-data";
import { RedactionPreview } from "./RedactionPreview";
import { ShareClient } from "../../lib/client/share-client";
import type { ShareWritten } from "../../lib/client/share-protocol";
import { readShareTemplate, shareSourceOf } from "./share-source";
import { Check, PasswordField, RuleBox, Section } from "./ShareFields";
import { ShareResult } from "./ShareResult";
import { useSessionMemo } from "@/components/viewer/use-session-memo";

type Lock = "none" | "password" | "key";

const SCOPES: { scope: ShareScope; title: string; detail: string }[] = [
  { scope: "session", title: "The whole session", detail: "every branch, the leaf history and labels, as the file has them" },
  { scope: "fork", title: "The fork at the selected entry", detail: "the file Export fork writes: root → entry, which pi --session resumes" },
  { scope: "path", title: "The path to the selected entry", detail: "the header and root → entry with their own ids, nothing else" },
];

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

const NO_SESSION_PROBLEMS = Object.fromEntries(SCOPES.map(({ scope }) => [scope, "No session"])) as Record<ShareScope, string | null>;

export function ShareDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const host = useViewerHost();
  const source = useViewer((s) => s.source);
  const fileName = useViewer((s) => s.fileName) ?? "session.jsonl";
  const selectedId = useViewer((s) => s.selectedId);
  const tab = useViewer((s) => s.tab);
  const reader = useViewer((s) => s.doc?.session.reader ?? "ca");
  const [client, setClient] = useState<ShareClient | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // a preview answers one request (scope, entry, rules); until the current one's answer comes there is none
  const [answered, setAnswered] = useState<{ request: string; preview: SharePreview | string } | null>(null);
  const [scope, setScope] = useState<ShareScope>("session");
  const [builtIn, setBuiltIn] = useState(true);
  const [homePaths, setHomePaths] = useState(true);
  const [literalText, setLiteralText] = useState("");
  const [regexText, setRegexText] = useState("");
  const [dropImages, setDropImages] = useState(false);
  const [lock, setLock] = useState<Lock>("none");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [writing, setWriting] = useState(false);
  const [written, setWritten] = useState<{ file: ShareWritten; name: string } | null>(null);
  const ids = useId();

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  // the worker reads the session as it is when the dialog opens (a live one may grow meanwhile: open it again)
  const shareSource = useMemo(() => {
    try {
      return source ? { from: shareSourceOf(source), problem: null } : null;
    } catch (error) {
      return { from: null, problem: error instanceof Error ? error.message : String(error) };
    }
  }, [source]);
  useEffect(() => {
    if (!shareSource?.from) return;
    const made = new ShareClient(shareSource.from, fileName, reader);
    made.loaded.then(
      () => setClient(made),
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => made.dispose();
  }, [shareSource, fileName, reader]);

  // typing in the rule boxes re-scans the session (in the worker), once the typing pauses
  const ruleText = useDeferredValue(`${literalText}\u0000${regexText}`);
  const ruleOptions = useMemo<RedactionOptions | null>(() => {
    const [literals, regexes] = ruleText.split("\u0000").map(lines) as [string[], string[]];
    return builtIn || homePaths || literals.length > 0 || regexes.length > 0 ? { builtIn, homePaths, literals, regexes } : null;
  }, [ruleText, builtIn, homePaths]);
  const compiled = useMemo(() => (ruleOptions ? compileRedaction(ruleOptions) : null), [ruleOptions]);
  const ruleErrors = compiled && "errors" in compiled ? compiled.errors : [];
  const problems =
    useSessionMemo(
      (session) => Object.fromEntries(SCOPES.map(({ scope: s }) => [s, scopeProblem(session, s, selectedId)])) as Record<ShareScope, string | null>,
      [selectedId],
    ) ?? NO_SESSION_PROBLEMS;
  const sourcePath = sourcePathOf(source);
  const problem = problems[scope];
  const usableRules = ruleErrors.length === 0 ? ruleOptions : null;
  const request = JSON.stringify([scope, selectedId, sourcePath, usableRules]);
  useEffect(() => {
    if (!client || problem || ruleErrors.length > 0) return;
    let current = true;
    client.preview({ choice: { scope, entryId: selectedId, sourcePath }, rules: usableRules }).then(
      (preview) => current && setAnswered({ request, preview }),
      (error: unknown) => current && setAnswered({ request, preview: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [client, request, scope, selectedId, sourcePath, usableRules, problem, ruleErrors.length]);
  const preview = answered?.request === request ? answered.preview : null;
  const shownFailure = failure ?? shareSource?.problem ?? null;

  const passwordProblem = lock !== "password" ? null : password.length === 0 ? "Choose a password." : password !== confirm ? "The two passwords differ." : null;
  const ready = client && typeof preview === "object" && preview !== null && ruleErrors.length === 0 && !passwordProblem && !writing;

  async function write() {
    if (!client) return;
    setWriting(true);
    setFailure(null);
    try {
      const template = await readShareTemplate(host === "server" ? "server" : "static");
      const file = await client.write({
        template,
        choice: { scope, entryId: selectedId, sourcePath },
        rules: usableRules,
        tab,
        dropImages,
        protection: lock === "password" ? { kind: "password", password } : { kind: lock as "none" | "key" },
      });
      const name = shareFileName(file.manifest.fileName);
      downloadText(name, file.html, "text/html");
      setWritten({ file, name });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setWriting(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby={`${ids}-title`}
      className="m-auto max-h-[88vh] w-[min(720px,94vw)] overflow-hidden rounded-lg border border-border bg-background p-0 text-foreground shadow-2xl backdrop:bg-black/40"
      data-testid="share-dialog"
    >
      <div className="flex max-h-[88vh] flex-col">
        <header className="flex items-center gap-2 border-b border-border px-4 py-2.5">
          <Icon name="share" size={15} className="text-muted" />
          <h2 id={`${ids}-title`} className="text-sm font-semibold">
            Share this session
          </h2>
          <span className="text-[12px] text-muted">one HTML file that opens the whole viewer anywhere, with no server and no network</span>
          <button
            type="button"
            className="ml-auto rounded p-1 text-muted hover:bg-surface-2 hover:text-foreground"
            onClick={() => dialog.current?.close()}
            aria-label="Close"
          >
            <Icon name="x" size={15} />
          </button>
        </header>
        <div className="min-h-0 flex-1 space-y-4 overflow-auto px-4 py-3 text-[13px]">
          <Section title="What goes in">
            {SCOPES.map(({ scope: s, title, detail }) => (
              <label key={s} className="flex items-start gap-2 py-0.5" title={problems[s] ?? undefined}>
                <input
                  type="radio"
                  name={`${ids}-scope`}
                  className="mt-1 accent-accent"
                  checked={scope === s}
                  disabled={problems[s] !== null}
                  onChange={() => setScope(s)}
                  data-testid={`share-scope-${s}`}
                />
                <span className={problems[s] ? "opacity-50" : undefined}>
                  <span className="font-medium">{title}</span>
                  {s !== "session" && selectedId && <span className="ml-1 font-mono text-[12px] text-muted">{selectedId}</span>}
                  <span className="block text-[12px] text-muted">{problems[s] ?? detail}</span>
                </span>
              </label>
            ))}
            {preview && typeof preview === "object" && (
              <p className="mt-1 text-[12px] text-muted" data-testid="share-size">
                {preview.lines.toLocaleString("en-US")} lines, {formatBytes(preview.bytes)} before compression
              </p>
            )}
          </Section>

          <Section title="Redact">
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              <Check checked={builtIn} onChange={setBuiltIn} testId="share-redact-builtin">
                Likely secrets <span className="text-muted">(API keys, tokens, private keys, passwords in URLs)</span>
              </Check>
              <Check checked={homePaths} onChange={setHomePaths} testId="share-home-paths">
                Home directories as <span className="font-mono">~</span>
              </Check>
            </div>
            <div className="mt-2 grid grid-cols-2 gap-3">
              <RuleBox
                label="Also mask these exact strings"
                hint="one per line: a customer name, a host…"
                value={literalText}
                onChange={setLiteralText}
                testId="share-literals"
              />
              <RuleBox
                label="And these regular expressions"
                hint={"one per line, e.g. [a-z]+\\.corp\\.example"}
                value={regexText}
                onChange={setRegexText}
                testId="share-regexes"
              />
            </div>
            {ruleErrors.length > 0 && (
              <ul className="mt-1 text-[12px] text-danger" role="alert" data-testid="share-rule-errors">
                {ruleErrors.map((e) => (
                  <li key={e.rule}>
                    <span className="font-mono">{e.rule}</span>: {e.message}
                  </li>
                ))}
              </ul>
            )}
            {preview && typeof preview === "object" && preview.findings && <RedactionPreview findings={preview.findings} />}
            <p className="mt-1.5 text-[11.5px] text-subtle">
              Masks read <span className="font-mono">[REDACTED:rule]</span>; the file records each rule&apos;s name and count, never what it masked. Ids,
              parents and types are never changed.
            </p>
          </Section>

          {preview && typeof preview === "object" && preview.images.dropped > 0 && (
            <Section title="Images">
              <Check checked={dropImages} onChange={setDropImages} testId="share-drop-images">
                Leave out the {preview.images.dropped} image{preview.images.dropped === 1 ? "" : "s"}{" "}
                <span className="text-muted">(saves {formatBytes(preview.images.bytes)}; each becomes a note saying what was there)</span>
              </Check>
            </Section>
          )}

          <Section title="Protect">
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {(
                [
                  ["none", "Not sealed", "anyone with the file can read it"],
                  ["password", "Password", "asked for when the file opens"],
                  ["key", "Key in the link", "a random key after #k= in the link you send"],
                ] as const
              ).map(([value, title, detail]) => (
                <label key={value} className="flex items-start gap-2" title={detail}>
                  <input
                    type="radio"
                    name={`${ids}-lock`}
                    className="mt-1 accent-accent"
                    checked={lock === value}
                    onChange={() => setLock(value)}
                    data-testid={`share-lock-${value}`}
                  />
                  <span>
                    {title}
                    <span className="block text-[11.5px] text-muted">{detail}</span>
                  </span>
                </label>
              ))}
            </div>
            {lock === "password" && (
              <div className="mt-2 grid grid-cols-2 gap-3">
                <PasswordField label="Password" value={password} onChange={setPassword} testId="share-password" />
                <PasswordField label="Again" value={confirm} onChange={setConfirm} testId="share-password-confirm" />
                <p className="col-span-2 text-[11.5px] text-muted">
                  {passwordProblem ??
                    (password.length < 12
                      ? "A short password can be guessed by anyone who has the file; prefer four or more words."
                      : "The data is sealed with AES-GCM, the key derived from the password (PBKDF2, 600,000 rounds).")}
                </p>
              </div>
            )}
          </Section>

          {written && <ShareResult file={written.file} name={written.name} />}
          {(shownFailure || typeof preview === "string") && (
            <p role="alert" className="text-[12px] text-danger" data-testid="share-failure">
              {shownFailure ?? (preview as string)}
            </p>
          )}
        </div>
        <footer className="flex items-center gap-2 border-t border-border px-4 py-2.5">
          <span className="text-[12px] text-muted" data-testid="share-status">
            {shownFailure
              ? ""
              : !client
                ? "Reading the session…"
                : preview === null
                  ? "Scanning…"
                  : "Nothing leaves this computer: the file is made here and downloaded."}
          </span>
          <Button variant="secondary" className="ml-auto" onClick={() => dialog.current?.close()}>
            {written ? "Done" : "Cancel"}
          </Button>
          <Button variant="primary" onClick={write} disabled={!ready} data-testid="share-write">
            {writing ? "Writing…" : written ? "Write again" : "Write share file"}
          </Button>
        </footer>
      </div>
    </dialog>
  );
}
