// Side by side with pi: every tool call in the shared fixtures and in random sessions is drawn by pi 1.6.0's own
// export code (its page script, run in Node: lib/session/testing/pi-export-template.ts) and by ToolCallView, and
// what pi shows — the path, each diff line and its sign, the command, the exit code, the truncation note, the
// error text, what was read or written — must be in ours.
import { readFileSync } from "node:fs";
import { parseHTML } from "linkedom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageBody } from "@/components/inspector/MessageBody";
import { toolCallOf, toolViewOf, type ToolView } from "@/lib/session/features/tool-view";
import { listFixtures } from "@/lib/session/testing/golden";
import { piExportRenderer, type PiExportRenderer } from "@/lib/session/testing/pi-export-template";
import { assistantMessage, bashExecutionMessage, newConversation, toolResultMessage } from "@/lib/session/testing/random-session";
import { Rng } from "@/lib/session/testing/rng";
import type { JsonObject } from "@/lib/session/types";
import { FoldsOpen, VIRTUAL_LINES, headOf } from "./FoldedLines";
import { ToolCallView } from "./ToolCallView";

type Entry = JsonObject & { message?: JsonObject };

function entriesOf(file: string): Entry[] {
  const out: Entry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value) && (value as JsonObject).type !== "session") out.push(value as Entry);
    } catch {
      // unreadable lines are the corruption suites' business
    }
  }
  return out;
}

/**
 * The characters both pages show, whitespace set aside: pi turns tabs into spaces and draws a plain output's
 * lines as elements of their own, a highlighted one as text with newlines, so where the lines break is compared
 * by the counts of lines, not here.
 */
const norm = (text: string | null | undefined) => (text ?? "").replace(/[\s\u200b]+/g, "");
/** the text a reader hears: no line numbers or signs drawn for the eye, no buttons */
function spoken(element: Element | null | undefined): string {
  if (!element) return "";
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll("[aria-hidden], button, .sr-only")) hidden.remove();
  return copy.textContent ?? "";
}
/** the whole of an output pi shows folded (its preview repeats the first lines) */
const piOutput = (doc: Document, which: "first" | "last" = "last") =>
  doc.querySelector(".tool-output .output-full") ?? [...doc.querySelectorAll(".tool-output")].at(which === "first" ? 0 : -1) ?? null;
const dom = (html: string) => parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;

function ours(view: ToolView) {
  return dom(renderToStaticMarkup(createElement(FoldsOpen, { open: true }, createElement(ToolCallView, { view }))));
}

/** the result pi's page finds for a call: the first tool result in the file with its id */
function resultFor(entries: readonly Entry[], id: string): JsonObject | null {
  for (const entry of entries) if (entry.type === "message" && entry.message?.role === "toolResult" && entry.message.toolCallId === id) return entry.message;
  return null;
}

let compared = 0;
const seen = new Map<string, number>();

function compareCall(pi: PiExportRenderer, entries: readonly Entry[], block: unknown, where: string) {
  const call = toolCallOf(block);
  if (!call || !call.id) return;
  const theirs = dom(pi.renderToolCall(block));
  const view = toolViewOf(call, resultFor(entries, call.id));
  const mine = ours(view);
  const root = mine.querySelector(`[data-tool-call-id]`);
  const at = `${where} ${call.name} ${call.id}`;
  expect(root?.getAttribute("data-tool"), at).toBe(call.name);
  expect(root?.getAttribute("data-tool-call-id"), at).toBe(call.id);
  seen.set(call.name, (seen.get(call.name) ?? 0) + 1);
  compared++;

  // the path (pi shortens a home directory to ~ and puts a read's range after it)
  const piPath = theirs.querySelector(".tool-path");
  if (piPath && !piPath.querySelector(".tool-error") && (call.name !== "ls" || typeof call.arguments.path === "string")) {
    const path = mine.querySelector("[data-tool-path]")?.getAttribute("data-tool-path") ?? "";
    const range = view.tool === "read" ? view.range : "";
    expect(norm(piPath.textContent), at).toBe(
      norm(`${pi.shortenPath(path)}${range}`) + (call.name === "ls" && call.arguments.limit !== undefined ? ` (limit ${String(call.arguments.limit)})` : ""),
    );
  }

  // each diff line, its sign and its text
  const piDiff = [...theirs.querySelectorAll(".tool-diff > div")];
  const myDiff = [...mine.querySelectorAll("[data-diff]")].map((row) => {
    const cells = [...row.children].filter((cell) => !cell.classList.contains("sr-only"));
    // number, sign, text: pi writes sign, number and text in one line
    return { sign: row.getAttribute("data-diff"), text: `${cells[0]!.textContent} ${cells[2]!.textContent}` };
  });
  // (pi draws a diff a failed edit's result carries; pi's edit never records one, and we show the error)
  if (piDiff.length && !view.failed) {
    // a diff past VIRTUAL_LINES draws only the lines in view: its lines are compared as the view holds them
    const rows =
      view.tool === "edit" && view.diff && view.diff.length > VIRTUAL_LINES
        ? view.diff.map((line) => ({ sign: line.sign, text: `${line.line ?? ""} ${line.text}` }))
        : myDiff;
    expect(rows.length, at).toBe(piDiff.length);
    piDiff.forEach((line, i) => {
      const sign = line.className === "diff-added" ? "+" : line.className === "diff-removed" ? "-" : " ";
      expect(rows[i]!.sign, `${at} line ${i}`).toBe(sign);
      const written = line.textContent ?? "";
      expect(norm(rows[i]!.text), `${at} line ${i}`).toBe(norm(/^[+\- ]/.test(written) ? written.slice(1) : written));
    });
  } else if (view.tool === "edit" && view.diffFrom === "result" && !view.failed) throw new Error(`${at}: a recorded diff pi does not show`);

  // a failed edit: pi's error text, and no diff
  if (call.name === "edit" && view.failed) {
    expect(myDiff.length, at).toBe(0);
    const said = norm(mine.querySelector("[role=note]")?.textContent);
    expect(said, at).toBe(norm(view.output) || norm("(the tool failed and said nothing)"));
    if (!piDiff.length && theirs.querySelector(".tool-output")) expect(said, at).toBe(norm(theirs.querySelector(".tool-output")?.textContent));
  }

  if (call.name === "bash") {
    const command = theirs.querySelector(".tool-command")?.textContent ?? "";
    if (typeof call.arguments.command === "string")
      expect(norm(spoken(mine.querySelector("[aria-label=command]"))), at).toBe(norm(command.replace(/^\$ /, "")));
    const output = (piOutput(theirs)?.textContent ?? "").trimEnd();
    const exited = /Command exited with code (\d+)$/.exec(output);
    const code = mine.querySelector("[data-exit-code]")?.getAttribute("data-exit-code") ?? null;
    if (exited) expect(code, at).toBe(exited[1]);
    else if (view.result && !view.failed) expect(code, at).toBe("0");
    // the truncation note pi's bash writes, whole
    const note = /\[Showing [^\]]*Full output: [^\]]*\]/.exec(output);
    if (note) expect(norm(spoken(mine.body)), at).toContain(norm(note[0]));
    // the output itself, less pi's closing status line (shown as the exit code) and its truncation note
    const status = /(Command exited with code \d+|Command aborted|Command timed out after [\d.]+ seconds|Command terminated without an exit code)$/.exec(
      output,
    )?.[1];
    if (status && !exited)
      expect(spoken(mine.querySelector("[data-tool]")), at).toContain(
        status.includes("aborted") ? "aborted" : status.includes("timed out") ? "timed out" : "no exit code",
      );
    const bare = (text: string) =>
      norm((status && text.endsWith(status) ? text.slice(0, -status.length) : text).trimEnd().replace(/\[Showing [^\]]*Full output: [^\]]*\]$/, ""));
    const drawn = view.tool === "bash" && headOf(view.shown, 1).total > VIRTUAL_LINES ? view.shown : spoken(mine.querySelector("[aria-label=output]"));
    expect(bare(drawn), at).toBe(bare(output));
  }

  // what was read or written, line for line
  if (view.tool === "read" && view.result && !view.failed && view.content) {
    const shown = norm(piOutput(theirs)?.textContent);
    // a block past VIRTUAL_LINES draws only the lines in view: its lines are compared as the view holds them
    const drawn = headOf(view.content, 1).total > VIRTUAL_LINES ? view.content : spoken(mine.querySelector("[aria-label^='lines read']"));
    expect(norm(`${drawn} ${view.note ?? ""}`), at).toBe(shown);
  }
  if (call.name === "write" && typeof call.arguments.content === "string" && call.arguments.content) {
    const shown = norm(piOutput(theirs, "first")?.textContent);
    const content = call.arguments.content;
    const drawn = headOf(content, 1).total > VIRTUAL_LINES ? content : spoken(mine.querySelector("[aria-label^='content written']"));
    expect(norm(drawn), at).toBe(shown);
  }
  // a listing's lines (pi draws ls; grep and find as the fallback does: their arguments, then their output)
  if ((call.name === "ls" || call.name === "grep" || call.name === "find") && view.result && !view.failed) {
    const outputs = [...theirs.querySelectorAll(".tool-output")];
    const shown = call.name === "ls" ? outputs[0] : outputs[1];
    const theirsText = norm(shown?.querySelector(".output-full")?.textContent ?? shown?.textContent);
    const listed = view.tool === "grep" || view.tool === "find" || view.tool === "ls" ? view : null;
    expect(norm([...(listed?.items ?? []), ...(listed?.notes ?? [])].join(" ")), at).toBe(
      theirsText.replace(/^(Nomatchesfound|Nofilesfoundmatchingpattern|\(emptydirectory\))$/, ""),
    );
    if (listed && listed.items.length <= VIRTUAL_LINES)
      expect(norm(spoken(mine.querySelector(`[aria-label$='of ${call.name}']`))), at).toBe(norm(listed.items.join("")));
  }
}

function compareBash(pi: PiExportRenderer, entry: Entry, where: string) {
  const theirs = dom(pi.renderEntry(entry));
  const mine = dom(renderToStaticMarkup(createElement(FoldsOpen, { open: true }, createElement(MessageBody, { message: entry.message! }))));
  const at = `${where} bashExecution ${String(entry.id)}`;
  expect(norm(spoken(mine.querySelector("[aria-label=command]"))), at).toBe(
    norm((theirs.querySelector(".tool-command")?.textContent ?? "").replace(/^\$ /, "")),
  );
  const exit = /\(exit (-?\d+)\)/.exec(theirs.body.textContent ?? "");
  if (exit) expect(mine.body.textContent, at).toContain(`exit ${exit[1]}`);
  const output = entry.message!.output;
  if (typeof output === "string" && output) {
    const drawn = headOf(output, 1).total > VIRTUAL_LINES ? output : spoken(mine.querySelector("[aria-label=output]"));
    expect(norm(drawn), at).toBe(norm(piOutput(theirs)?.textContent));
  }
  compared++;
}

function compareFile(entries: Entry[], where: string) {
  const pi = piExportRenderer(entries);
  for (const entry of entries) {
    const message = entry.message;
    if (entry.type !== "message" || !message) continue;
    if (message.role === "assistant" && Array.isArray(message.content)) for (const block of message.content) compareCall(pi, entries, block, where);
    if (message.role === "bashExecution" && typeof message.command === "string") compareBash(pi, entry, where);
  }
}

describe("tool calls as pi 1.6.0's export shows them", () => {
  it("every tool call of every shared fixture", () => {
    for (const fixture of listFixtures()) compareFile(entriesOf(fixture.file), fixture.name);
    // the fixtures hold pi's real edits, reads, writes, bash runs and greps: each is compared many times
    for (const tool of ["edit", "read", "write", "bash", "grep"]) expect(seen.get(tool) ?? 0, tool).toBeGreaterThan(50);
  });

  it("every tool call of random sessions (pi's tools, failures, images, orphan results)", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const state = newConversation(rng);
      const entries: Entry[] = [];
      let now = 1_700_000_000_000;
      for (let turn = 0; turn < 30; turn++) {
        entries.push({ type: "message", id: `a${turn}`, message: assistantMessage(rng, (now += 1000), state) as JsonObject });
        while (state.openToolCalls.length)
          entries.push({ type: "message", id: `r${turn}-${state.openToolCalls.length}`, message: toolResultMessage(rng, (now += 10), state) as JsonObject });
        if (rng.next() < 0.2) entries.push({ type: "message", id: `b${turn}`, message: bashExecutionMessage(rng, (now += 10)) as JsonObject });
      }
      compareFile(entries, `random ${seed}`);
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
