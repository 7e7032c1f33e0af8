"use client";

/**
 * Markdown from a session, rendered inert: react-markdown builds React
 * elements (raw HTML stays literal text), links keep only http(s)/mailto
 * targets and never pass a referrer, and images are never fetched — they show
 * as their address instead, since a session file can point anywhere.
 */
import { memo, type ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { Element, ElementContent } from "hast";
import { CodeBlock } from "@/components/transcript/CodeBlock";
import { knownLanguage } from "@/lib/render/languages";

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

export function safeHref(url: string): string {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : "";
}

function Link({ href, children }: ComponentProps<"a">) {
  if (!href) return <span className="underline decoration-dotted">{children}</span>;
  return (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank" className="text-accent underline underline-offset-2">
      {children}
    </a>
  );
}

function Image({ src, alt }: ComponentProps<"img">) {
  const url = typeof src === "string" ? src : "";
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
function FencedCode({ node }: { node?: Element }) {
  const code = node?.children.find((child): child is Element => child.type === "element" && child.tagName === "code");
  const classes = code?.properties.className;
  const named = Array.isArray(classes) ? classes.map(String).find((name) => name.startsWith("language-")) : undefined;
  const language = named ? named.slice("language-".length) : null;
  const text = code ? toText(code).replace(/\n$/, "") : "";
  return (
    // laid out only when near the view: a reply with 200 blocks paints its first screen without the other 190
    <div className="my-2 [contain-intrinsic-size:auto_120px] [content-visibility:auto]">
      <CodeBlock code={text} language={knownLanguage(language)} label={language ? `${language} code` : "code"} />
    </div>
  );
}

function toText(node: Element | ElementContent): string {
  if (node.type === "text") return node.value;
  return node.type === "element" ? node.children.map(toText).join("") : "";
}

const components: Components = {
  p: ({ children }) => <p className="my-1.5">{children}</p>,
  ul: ({ children }) => <ul className="my-1.5 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-1.5 list-decimal pl-5">{children}</ol>,
  li: ({ children }) => <li className="my-0.5">{children}</li>,
  h1: ({ children }) => <h4 className="mt-3 mb-1 text-[14px] font-semibold">{children}</h4>,
  h2: ({ children }) => <h4 className="mt-3 mb-1 text-[13px] font-semibold">{children}</h4>,
  h3: ({ children }) => <h5 className="mt-2 mb-1 text-[13px] font-semibold">{children}</h5>,
  h4: ({ children }) => <h6 className="mt-2 mb-1 text-[13px] font-medium">{children}</h6>,
  h5: ({ children }) => <h6 className="mt-2 mb-1 text-[13px] font-medium">{children}</h6>,
  h6: ({ children }) => <h6 className="mt-2 mb-1 text-[13px] font-medium">{children}</h6>,
  blockquote: ({ children }) => <blockquote className="my-1.5 border-l-2 border-border pl-3 text-muted">{children}</blockquote>,
  hr: () => <hr className="my-3 border-border" />,
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ src, alt }) => <Image src={src} alt={alt} />,
  pre: ({ node }) => <FencedCode node={node} />,
  code: ({ children }) => <code className="rounded bg-surface px-1 font-mono text-[12px] [pre>&]:bg-transparent [pre>&]:px-0">{children}</code>,
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="border-collapse text-[12px]">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border border-border px-2 py-0.5 text-left font-semibold">{children}</th>,
  td: ({ children }) => <td className="border border-border px-2 py-0.5 align-top">{children}</td>,
};

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md min-w-0 break-words text-[13px] leading-relaxed">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} urlTransform={safeHref}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
