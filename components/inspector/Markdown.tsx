"use client";

/**
 * Markdown from a session, rendered inert: marked (the parser pi's own export uses) reads the text into tokens,
 * and they become React elements here; its HTML output is never used, so raw HTML stays literal text. Links
 * keep only http(s)/mailto targets and never pass a referrer, and images are never fetched: they show as their
 * address, since a session file can point anywhere. marked reads a reply with 200 code blocks in a few
 * milliseconds, where micromark (react-markdown) took a good part of a second.
 */
import { decodeNamedCharacterReference } from "decode-named-character-reference";
import { Lexer, type Token, type Tokens } from "marked";
import { memo, useMemo, type ReactNode } from "react";
import { CodeBlock } from "@/components/transcript/CodeBlock";
import { knownLanguage } from "@/lib/render/languages";

const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const OPTIONS = { gfm: true, breaks: false } as const;

export function safeHref(url: string): string {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : "";
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const tokens = useMemo(() => Lexer.lex(text, OPTIONS), [text]);
  return <div className="md min-w-0 break-words text-[13px] leading-relaxed">{tokens.map(block)}</div>;
});

/** Markdown's six heading levels on the inspector's small scale: a message's "#" is not a page title */
const HEADINGS = [
  { Tag: "h4", className: "mt-3 mb-1 text-[14px] font-semibold" },
  { Tag: "h4", className: "mt-3 mb-1 text-[13px] font-semibold" },
  { Tag: "h5", className: "mt-2 mb-1 text-[13px] font-semibold" },
  { Tag: "h6", className: "mt-2 mb-1 text-[13px] font-medium" },
] as const;

function block(token: Token, key: number): ReactNode {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return (
        <p key={key} className="my-1.5">
          {inline((token as Tokens.Paragraph).tokens)}
        </p>
      );
    case "heading": {
      const heading = token as Tokens.Heading;
      const { Tag, className } = HEADINGS[Math.min(heading.depth, HEADINGS.length) - 1]!;
      return (
        <Tag key={key} className={className}>
          {inline(heading.tokens)}
        </Tag>
      );
    }
    case "code": {
      const code = token as Tokens.Code;
      return <FencedCode key={key} lang={code.lang ?? null} text={code.text} />;
    }
    case "blockquote":
      return (
        <blockquote key={key} className="my-1.5 border-l-2 border-border pl-3 text-muted">
          {(token as Tokens.Blockquote).tokens.map(block)}
        </blockquote>
      );
    case "list":
      return <List key={key} list={token as Tokens.List} />;
    case "table":
      return <Table key={key} table={token as Tokens.Table} />;
    case "hr":
      return <hr key={key} className="my-3 border-border" />;
    case "html":
      // raw HTML is shown as what it is: text
      return (
        <p key={key} className="my-1.5 whitespace-pre-wrap">
          {(token as Tokens.HTML).text}
        </p>
      );
    case "checkbox":
      return inlineToken(token, key);
    case "text": {
      // a tight list item's text
      const text = token as Tokens.Text;
      return <span key={key}>{text.tokens ? inline(text.tokens) : decodeEntities(text.text)}</span>;
    }
    default:
      return <span key={key}>{"raw" in token ? String(token.raw) : ""}</span>;
  }
}

function inline(tokens: readonly Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map(inlineToken);
}

function inlineToken(token: Token, key: number): ReactNode {
  switch (token.type) {
    case "text": {
      const text = token as Tokens.Text;
      return text.tokens ? <span key={key}>{inline(text.tokens)}</span> : decodeEntities(text.text);
    }
    case "escape":
      return (token as Tokens.Escape).text;
    case "html":
      return (token as Tokens.Tag).text;
    case "strong":
      return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>;
    case "em":
      return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>;
    case "del":
      return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>;
    case "codespan":
      return (
        <code key={key} className="rounded bg-surface px-1 font-mono text-[12px]">
          {(token as Tokens.Codespan).text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link": {
      const link = token as Tokens.Link;
      return (
        <Link key={key} href={safeHref(link.href)}>
          {inline(link.tokens)}
        </Link>
      );
    }
    case "image": {
      const image = token as Tokens.Image;
      return <Image key={key} src={image.href} alt={image.text} />;
    }
    case "checkbox":
      return <input key={key} type="checkbox" disabled checked={(token as Tokens.Checkbox).checked} className="mr-1 align-middle" />;
    default:
      return "raw" in token ? String(token.raw) : "";
  }
}

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/g;

/** marked leaves character references in text as written (its HTML output lets the browser decode them). */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (whole, ref: string) => {
    if (ref[0] !== "#") {
      const named = decodeNamedCharacterReference(ref);
      return named === false ? whole : named;
    }
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    // CommonMark: 0 and what is not a Unicode scalar value become U+FFFD
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? "\ufffd" : String.fromCodePoint(code);
  });
}

function Link({ href, children }: { href: string; children: ReactNode }) {
  if (!href) return <span className="underline decoration-dotted">{children}</span>;
  return (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank" className="text-accent underline underline-offset-2">
      {children}
    </a>
  );
}

function Image({ src, alt }: { src: string; alt: string }) {
  const url = safeHref(src);
  const label = `image${alt ? `: ${alt}` : ""}`;
  return (
    <span className="rounded border border-border bg-surface px-1 text-[12px] text-muted" title="Images in Markdown are not loaded">
      [{label}
      {url ? (
        <>
          {" "}
          <a href={url} rel="noopener noreferrer nofollow" target="_blank" className="font-mono text-accent underline">
            {url}
          </a>
        </>
      ) : null}
      ]
    </span>
  );
}

/** A fenced block: highlighted in the language its fence names (when we hold its grammar), folded when long. */
function FencedCode({ lang, text }: { lang: string | null; text: string }) {
  const language = lang?.trim().split(/\s+/)[0] || null;
  return (
    // laid out only when near the view: a reply with 200 blocks paints its first screen without the other 190
    <div className="my-2 [contain-intrinsic-size:auto_120px] [content-visibility:auto]">
      <CodeBlock code={text} language={knownLanguage(language)} label={language ? `${language} code` : "code"} />
    </div>
  );
}

function List({ list }: { list: Tokens.List }) {
  const items = list.items.map((item, i) => (
    <li key={i} className="my-0.5">
      {item.tokens.map(block)}
    </li>
  ));
  return list.ordered ? (
    <ol start={typeof list.start === "number" && list.start !== 1 ? list.start : undefined} className="my-1.5 list-decimal pl-5">
      {items}
    </ol>
  ) : (
    <ul className="my-1.5 list-disc pl-5">{items}</ul>
  );
}

function Table({ table }: { table: Tokens.Table }) {
  const align = (i: number) => table.align[i] ?? undefined;
  return (
    <div className="my-2 overflow-x-auto">
      <table className="border-collapse text-[12px]">
        <thead>
          <tr>
            {table.header.map((cell, i) => (
              <th key={i} style={{ textAlign: align(i) }} className="border border-border px-2 py-0.5 text-left font-semibold">
                {inline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i} style={{ textAlign: align(i) }} className="border border-border px-2 py-0.5 align-top">
                  {inline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
