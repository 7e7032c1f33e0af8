// An entry's role, model and tools as lexemes of its words, so that a search filtered by them narrows inside the
// words' index: `"src be"` with role assistant met 29,239 rows holding both words, of which 13,462 were the
// assistant's, and each row is a visit to its page. A fact's lexeme starts with ":", which no word holds, so no word
// or prefix a query asks for matches it; a space in its value is made U+00A0, as the push's words are sent
// space-separated. Two values that differ only there share a lexeme: the filters are still asked of the rows'
// columns, and the lexemes only narrow.
import type { SearchFilters } from "../library-index";

/** PostgreSQL keeps no longer lexeme (bytes): a fact past it has none, and a filter on it is asked of the column alone. */
const MAX_LEXEME_BYTES = 2046;

const ROLE = ":role=";
const MODEL = ":model=";
const TOOL = ":tool=";

function lexeme(kind: string, value: string | null): string | null {
  if (value === null) return null;
  const made = kind + value.replaceAll(" ", "\u00a0");
  return Buffer.byteLength(made, "utf8") <= MAX_LEXEME_BYTES ? made : null;
}

/**
 * The most an entry's fact lexemes may take together (bytes). A tsvector holds a megabyte of lexemes and the push
 * keeps up to MAX_WORDS_BYTES (derived-rows.ts) of words: an entry whose facts would take more (dozens of tools with
 * names of kilobytes) has none, and is marked partial, so a search finds it by reading its line.
 */
const FACTS_MAX_BYTES = 32 * 1024;

/** An entry's fact lexemes, from its role, model and tools as its row's columns keep them; null: too many to keep. */
export function factLexemes(role: string | null, model: string | null, tools: readonly string[] | null): string[] | null {
  const made = [lexeme(ROLE, role), lexeme(MODEL, model), ...(tools ?? []).map((tool) => lexeme(TOOL, tool))].filter((made): made is string => made !== null);
  const bytes = made.reduce((sum, made) => sum + Buffer.byteLength(made, "utf8"), 0);
  return bytes <= FACTS_MAX_BYTES ? made : null;
}

/**
 * What brings an archive's rows written before the fact lexemes to them, as SQL statements: the lexemes from the
 * columns `role`, `model` and `tools`, or the row marked partial where they would take too much.
 */
export function factLexemesUpgrade(entries: string): string {
  const made = (kind: string, value: string) =>
    `case when octet_length('${kind}' || replace(${value}, ' ', U&'\\00A0')) <= ${MAX_LEXEME_BYTES} then '${kind}' || replace(${value}, ' ', U&'\\00A0') end`;
  const facts = `array_remove(array[${made(ROLE, "role")}, ${made(MODEL, "model")}] || array(select ${made(TOOL, "t")} from unnest(tools) t), null)`;
  const bytes = `(select coalesce(sum(octet_length(x)), 0) from unnest(${facts}) x)`;
  return `update ${entries} set words = words || array_to_tsvector(${facts}) where words is not null and ${bytes} <= ${FACTS_MAX_BYTES};
    update ${entries} set partial = true where words is not null and ${bytes} > ${FACTS_MAX_BYTES};`;
}

/** The filters' lexemes, each quoted for a tsquery. */
export function filterLexemes(filters: SearchFilters): string[] {
  const text = (value: string | undefined) => (value === undefined ? null : value.replaceAll("\0", "\uFFFD"));
  const made = [lexeme(ROLE, text(filters.role)), lexeme(MODEL, text(filters.model)), lexeme(TOOL, text(filters.tool))];
  // in a tsquery's quotes a quote is doubled and a backslash escapes the next character
  return made.filter((made): made is string => made !== null).map((made) => `'${made.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`);
}
