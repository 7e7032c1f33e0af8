export * from "./types";
export { SessionParser, parseSessionText } from "./read/parse";
export { LineReader, readLine, type ReadLine } from "./read/lines";
export { ContentNotReadError, type LineTexts } from "./read/line-texts";
export { TextComingError } from "./read/early-light-text";
export { type LeafStep, type LeafMoveKind, type NodeInfo } from "./tree/tree";
export { SessionTree } from "./rules/session-tree";
export type { LabelState } from "./rules/coding-agent-0.84/tree-state";
export type { LeafSteps } from "./tree/leaf-steps";
export { PathCut, PathIndex, type IdSet } from "./tree/path-index";
export { TreePath } from "./tree/tree-path";
export { Session, formatDiagnostic, type OpenOptions } from "./session";
export type { SchemaChecked } from "./read/schema-lines";
export { RULE_SETS, DEFAULT_RULES } from "./rules/registry";
export type { RuleSet, RuleInput } from "./rules/rule-set";
export { chooseRules, rulesBadgeText, type RulesChoice } from "./rules/detect";
export { FormatEvidence, type FormatTrace } from "./rules/format-evidence";
export { caBranch } from "./rules/coding-agent-0.84/branch";
export { caContext, caContextEntries, caMessages, pathSummary } from "./rules/coding-agent-0.84/context";
export { forkSession, type ForkOptions, type ForkResult } from "./rules/coding-agent-0.84/fork";
export { hxBranch } from "./rules/harness-0.83/branch";
export { hxContext, hxContextEntries, hxMessages } from "./rules/harness-0.83/context";
export { harnessRefusal } from "./rules/harness-0.83/refusal";
export { ca086Context, ca086ContextEntries, ca086Messages } from "./rules/coding-agent-0.86/context";
export { forkCa086, type Ca086ForkResult } from "./rules/coding-agent-0.86/fork";
export { editedCaContext, projectEdited, contextEdits } from "./rules/coding-agent-0.87/context";
export { v4Branch, v4Context, v4ContextEntries, v4Messages } from "./rules/v4-0.84/context";
export { forkV4Log, type V4ForkOptions } from "./rules/v4-0.84/fork";
export { treeShape, type TreeShape } from "./tree/tree-shape";
export { entryUsage, addUsage, ZERO_USAGE, type Usage } from "./usage";
export { uuidv7, randomEntryId } from "./ids";
export { entrySchemas, headerSchema, messageSchema, schemaIssues, isKnownEntryType, type KnownEntryType } from "./read/schema";
export { sessionStats, type SessionStats } from "./features/session-stats";
export { sessionTitle, messageTitle, TITLE_CHARS } from "./features/title";
export { compareNodes, messageKey, type Comparison, type CompareSide, type ComparedMessage } from "./features/compare";
export { modelLabel, contextModelLabel } from "./model-label";
export { searchSession, prepareSearch, entryFields, foldCase, SEARCH_LIMIT, type SearchField, type SearchHit, type SearchResult } from "./features/search";
export { scopeStats, type ScopeStats, type StatsScope } from "./features/scope-stats";
export {
  V4Log,
  V4_ENTRY_TYPES,
  V4_RECORD_TYPES,
  type V4Header,
  type V4Lane,
  type V4Label,
  type V4Record,
  type V4Stats,
  type V4Problem,
  type V4LineKind,
} from "./read/v4-log";
export {
  modelView,
  contextSizes,
  contextSizesAt,
  ContextSizes,
  chartPoints,
  wouldCompact,
  autoCompactAfter,
  type ModelView,
  type ContextSizePoint,
  type AutoCompactCheck,
} from "./features/model-view";
export { convertToLlm, bashExecutionToText, type LlmMessage } from "./rules/coding-agent-0.84/llm";
export {
  calculateContextTokens,
  estimateContextTokens,
  estimateTokens,
  shouldCompact,
  DEFAULT_COMPACTION_SETTINGS,
  type CompactionSettings,
  type TokenEstimate,
} from "./rules/coding-agent-0.84/tokens";
export { BRANCH_SUMMARY_RESERVE, BRANCH_SUMMARY_FALLBACK_WINDOW, type BranchSummaryPreview } from "./rules/coding-agent-0.84/branch-summary";
export type { CompactionPreview } from "./rules/coding-agent-0.84/compaction";
export { compactionAudit, type CompactionAudit } from "./features/compaction-audit";
