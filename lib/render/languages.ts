/**
 * Which grammar a block of code is highlighted with, decided without loading the highlighter: the names and
 * aliases of the grammars lowlight's `common` set holds (highlight.js's; languages.test.ts checks this list
 * against them), and the file extensions pi's export maps, and more.
 */

/** every name and alias of the `common` grammars → the grammar's name */
const GRAMMARS: Record<string, readonly string[]> = {
  arduino: ["ino"],
  bash: ["sh", "zsh"],
  c: ["h"],
  cpp: ["cc", "c++", "h++", "hpp", "hh", "hxx", "cxx"],
  csharp: ["cs", "c#"],
  css: [],
  diff: ["patch"],
  go: ["golang"],
  graphql: ["gql"],
  ini: ["toml"],
  java: ["jsp"],
  javascript: ["js", "jsx", "mjs", "cjs"],
  json: ["jsonc", "json5"],
  kotlin: ["kt", "kts"],
  less: [],
  lua: ["pluto"],
  makefile: ["mk", "mak", "make"],
  markdown: ["md", "mkdown", "mkd"],
  objectivec: ["mm", "objc", "obj-c", "obj-c++", "objective-c++"],
  perl: ["pl", "pm"],
  php: [],
  "php-template": [],
  plaintext: ["text", "txt"],
  python: ["py", "gyp", "ipython"],
  "python-repl": ["pycon"],
  r: [],
  ruby: ["rb", "gemspec", "podspec", "thor", "irb"],
  rust: ["rs"],
  scss: [],
  shell: ["console", "shellsession"],
  sql: [],
  swift: [],
  typescript: ["ts", "tsx", "mts", "cts"],
  vbnet: ["vb"],
  wasm: [],
  xml: ["html", "xhtml", "rss", "atom", "xjb", "xsd", "xsl", "plist", "wsf", "svg"],
  yaml: ["yml"],
};

export const GRAMMAR_NAMES: readonly string[] = Object.keys(GRAMMARS);

const BY_ALIAS = new Map<string, string>(
  Object.entries(GRAMMARS).flatMap(([name, aliases]) => [[name, name] as const, ...aliases.map((alias) => [alias, name] as const)]),
);
// the names code fences use that the grammars do not list
for (const [alias, name] of [
  ["shell-session", "shell"],
  ["terminal", "shell"],
  ["jsonl", "json"],
  ["yaml-frontmatter", "yaml"],
  ["htm", "xml"],
  ["golang", "go"],
  ["py3", "python"],
  ["python3", "python"],
] as const)
  BY_ALIAS.set(alias, name);

/** The grammar for a code fence's or a caller's language name (`ts`, `sh`, `yml`…); null for none we hold. */
export function knownLanguage(name: string | null | undefined): string | null {
  const key = name?.trim().toLowerCase();
  return key ? (BY_ALIAS.get(key) ?? null) : null;
}

const BY_NAME: Record<string, string> = { makefile: "makefile", gnumakefile: "makefile", ".bashrc": "bash", ".zshrc": "bash", ".profile": "bash" };
const EXTRA_EXTENSIONS: Record<string, string> = {
  m: "objectivec",
  jsonl: "json",
  cfg: "ini",
  conf: "ini",
  vue: "xml",
  svelte: "xml",
  markdown: "markdown",
  wat: "wasm",
  sc: "scss",
};

/** The grammar for a file by its name or extension (what pi's export maps, and every alias above); null for none. */
export function languageOfPath(filePath: string | null | undefined): string | null {
  if (!filePath) return null;
  const name = filePath.split(/[\\/]/).pop()!.toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  const extension = name.slice(dot + 1);
  return EXTRA_EXTENSIONS[extension] ?? (extension === "text" || extension === "txt" ? null : knownLanguage(extension));
}
