/**
 * pi 1.6.0's own HTML export, run in Node for differential tests: its page script (export-html/template.js)
 * renders every entry in the browser, so its function declarations are taken out of it with TypeScript's parser
 * and evaluated together over the entries. What it would draw for a tool call or an entry is then its HTML,
 * exactly; only the highlighter (the page's highlight.js) and the Markdown parser are left out: code then falls
 * back to escaped text, as the page itself does when highlighting throws.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const TEMPLATE = path.resolve(__dirname, "../../../node_modules/pi-coding-agent-160/dist/core/export-html/template.js");

export interface PiExportRenderer {
  renderToolCall(call: unknown): string;
  renderEntry(entry: unknown): string;
  shortenPath(p: string): string;
  getLanguageFromPath(p: string): string | undefined;
  formatReadLineRange(offset: unknown, limit: unknown): string;
  /** what a later system message changes, as pi's page heads it */
  describeSystemUpdate(message: unknown): string;
  getSystemMessageText(message: unknown): string;
  renderSystemMessageUpdate(message: unknown): string;
  /** whether no entry above it on its branch carries system state (the page draws it as the prompt, not an update) */
  isLeadingSystemEntry(entry: unknown): boolean;
}

let declarations: string | null = null;

/** every function declared in the page script, in order */
function templateFunctions(): string {
  if (declarations !== null) return declarations;
  const source = ts.createSourceFile(TEMPLATE, readFileSync(TEMPLATE, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) found.push(node.getText(source));
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return (declarations = found.join("\n"));
}

/** pi's renderers over these entries (what its page holds as `entries`: every entry of the file but the header). */
export function piExportRenderer(entries: readonly unknown[]): PiExportRenderer {
  const body = `"use strict";
const hljs = { highlight() { throw new Error("left out"); }, highlightAuto() { throw new Error("left out"); }, getLanguage() { return undefined; } };
const renderedTools = {};
const labelMap = new Map();
const byId = new Map(entries.map((entry) => [entry.id, entry]));
${templateFunctions()}
function safeMarkedParse(text) { return escapeHtml(text); }
function formatTimestamp() { return ""; }
return { renderToolCall, renderEntry, shortenPath, getLanguageFromPath, formatReadLineRange, describeSystemUpdate, getSystemMessageText, renderSystemMessageUpdate, isLeadingSystemEntry };`;
  return new Function("entries", body)(entries) as PiExportRenderer;
}
