/**
 * The "home paths" redaction rule: a home directory names its user, so it is written as `~`, in every
 * spelling a session holds one. Unix and macOS (`/home/<name>`, `/Users/<name>`), Windows (`C:\Users\<name>`,
 * `C:/Users/<name>`, backslashes doubled or more where a tool printed JSON), Windows from WSL, MSYS or Cygwin
 * (`/mnt/c/Users/<name>`, `/c/Users/<name>`), and the folder pi names after a working directory
 * (`--home-<name>-<project>--`, as in a fork's `parentSession`), whose user cannot be told from the project
 * (`ann-lee` is one name or two), so all of it goes: `--home-~--`.
 */
import type { RedactionRule } from "./redact";

const NAME_CHAR = String.raw`[^\s\\/"'\x60<>|:*?,;()[\]{}=.]`;
/** A user name: dots only inside it, so a sentence's full stop after "/home/sam." stays. */
const USER_NAME = `${NAME_CHAR}+(?:\\.${NAME_CHAR}+)*`;

/** a slash, after backslashes where a writer escaped it (`\/`) */
const SLASH = String.raw`\\*\/`;
/** not after a path character, so "/data/home/x" and "~/home/x" are not someone's home */
const UNIX_HOME = String.raw`(?<![\w.~-])(?:${SLASH}(?:mnt|cygdrive))?${SLASH}(?:Users|home|[A-Za-z]${SLASH}Users)${SLASH}`;

/** one or more backslashes (a path inside JSON text that a tool printed, maybe inside JSON again) or a slash */
const WINDOWS_SEPARATOR = String.raw`(?:\\+|\/)`;
const WINDOWS_HOME = String.raw`(?<![A-Za-z0-9_])[A-Za-z]:${WINDOWS_SEPARATOR}[Uu][Ss][Ee][Rr][Ss]${WINDOWS_SEPARATOR}`;

/** pi's folder for a working directory: `--` + the path with `/`, `\` and `:` made `-` + `--` */
/** not `~`: a folder this rule wrote already (`--home-~--`) is not found again */
const FOLDER_START = String.raw`--(?:home|Users|[A-Za-z]--[Uu]sers)-(?!~)`;
const FOLDER_CHAR = String.raw`[^\s\\/"'\x60<>|:*?]`;
/** the folder's closing `--`, where a path goes on or the text stops */
const FOLDER_END = String.raw`(?=--(?:$|[\s\\/"'\x60<>|,;)\]}]))`;
/**
 * Anywhere, a whole folder name; where a path puts it (after a separator, a quote or a line start), also one
 * with spaces in it, or, cut off before its end, its first part: a command's `--home-dir` flag is neither.
 */
const FOLDER = String.raw`(?<![\w-])${FOLDER_START}(?<secret>${FOLDER_CHAR}+?${FOLDER_END}|(?<=(?:^|[\n\\/"'\x60])${FOLDER_START})(?:[^\n\r\\/"'\x60<>|:*?]+?${FOLDER_END}|[^\s\\/"'\x60<>|:*?-]+))`;

export const HOME_PATH_RULE: RedactionRule = {
  name: "home-path",
  kind: "home-path",
  description:
    "home directories (`/Users/<name>`, `/home/<name>`, `C:\\Users\\<name>`, `/mnt/c/Users/<name>`) shown as `~`, and pi's session folders named after them (`--home-<name>-<project>--`) as `--home-~--`",
  regex: new RegExp(`(?:${UNIX_HOME}|${WINDOWS_HOME})${USER_NAME}|${FOLDER}`, "gd"),
  replacement: "~",
};
