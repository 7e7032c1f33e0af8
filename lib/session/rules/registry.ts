import type { RuleSetId } from "../types";
import { codingAgent084 } from "./coding-agent-0.84";
import { codingAgent086 } from "./coding-agent-0.86";
import { codingAgent087 } from "./coding-agent-0.87";
import { harness083 } from "./harness-0.83";
import type { RuleSet } from "./rule-set";
import { v4Log084 } from "./v4-0.84";

/** Every pi version's rules, by id (the CLI's `--reader`, the viewer's `rules=`). */
export const RULE_SETS: Readonly<Record<RuleSetId, RuleSet>> = {
  ca: codingAgent084,
  hx: harness083,
  "ca-0.86": codingAgent086,
  "ca-0.87": codingAgent087,
  v4: v4Log084,
};

/** The rules a v3 file without traces of a newer writer is read by. */
export const DEFAULT_RULES: RuleSet = codingAgent084;
