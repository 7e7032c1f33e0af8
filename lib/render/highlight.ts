/**
 * Syntax highlighting as data: lines of tokens with highlight.js's class names. lowlight runs highlight.js's
 * grammars (pi's own export uses highlight.js) and returns a syntax tree, never an HTML string, so nothing from
 * a session is parsed as markup. Offline, about 100 kB for the common grammars, and loaded only when code shows.
 */
import type { Element, ElementContent } from "hast";
import { common, createLowlight } from "lowlight";
import { plainLines, type CodeLine } from "./code-lines";
import { knownLanguage } from "./languages";

const lowlight = createLowlight(common);

/** The grammars this highlighter holds (languages.ts must name exactly these). */
export function registeredGrammars(): string[] {
  return lowlight.listLanguages();
}

/** The code as lines of tokens in the language (any name knownLanguage takes); plain lines for anything else. */
export function highlightLines(code: string, language: string | null): CodeLine[] {
  const known = knownLanguage(language);
  if (!known || known === "plaintext") return plainLines(code);
  let children: ElementContent[];
  try {
    children = lowlight.highlight(known, code).children as ElementContent[];
  } catch {
    return plainLines(code); // a grammar that throws on odd input leaves the code readable
  }
  const lines: CodeLine[] = [[]];
  const walk = (nodes: readonly ElementContent[], classes: string | null) => {
    for (const node of nodes) {
      if (node.type === "text") {
        node.value.split("\n").forEach((piece, i) => {
          if (i > 0) lines.push([]);
          if (piece) lines[lines.length - 1]!.push({ text: piece, className: classes });
        });
      } else if (node.type === "element") walk(node.children, classOf(node, classes));
    }
  };
  walk(children, null);
  return lines;
}

/** the element's hljs classes added to its ancestors' (`hljs-title function_`'s modifier is dropped) */
function classOf(node: Element, outer: string | null): string | null {
  const own = node.properties?.className;
  const names = Array.isArray(own) ? own.filter((name): name is string => typeof name === "string" && /^hljs-[\w-]+$/.test(name)) : [];
  if (!names.length) return outer;
  return outer ? `${outer} ${names.join(" ")}` : names.join(" ");
}
