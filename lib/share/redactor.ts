// The share writer's view of the redaction rules (lib/export): one object that masks a parsed line or a raw
// one with the same compiled rules, and the record of what it masked.
import { redactJsonValue, redactString, type RedactionRules } from "@/lib/export/redact";
import { redactionRecord } from "@/lib/export/redaction-rules";
import type { ShareRedaction } from "./manifest";
import type { LineRedactor } from "./share-data";

export function lineRedactor(rules: RedactionRules): LineRedactor & { record(counts: Record<string, number>): ShareRedaction } {
  return {
    json: (value, counts) => redactJsonValue(value, counts, rules),
    text: (line, counts) => redactString(line, counts, rules),
    record: (counts) => redactionRecord(rules, counts),
  };
}
