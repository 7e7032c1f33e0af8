import { describe, expect, it } from "vitest";
import { redactJsonl, redactText } from "./redact";
import { compileRedaction } from "./redaction-rules";

const compiled = compileRedaction({ builtIn: false, homePaths: true });
if ("errors" in compiled) throw new Error(JSON.stringify(compiled.errors));
const home = compiled;

describe("home paths", () => {
  it.each([
    ["/Users/sam/x", "~/x"],
    ["/home/dev/projects", "~/projects"],
    ["cd /home/sam && ls /home/sam/a.txt.", "cd ~ && ls ~/a.txt."],
    ["C:\\Users\\Ann\\doc", "~\\doc"],
    ["C:/Users/Ann/doc", "~/doc"],
    ["d:\\users\\ann.lee\\x", "~\\x"],
    ['printed JSON: "C:\\\\Users\\\\Ann\\\\w"', 'printed JSON: "~\\\\w"'],
    ["JSON printed in JSON: C:\\\\\\\\Users\\\\\\\\Ann\\\\\\\\w", "JSON printed in JSON: ~\\\\\\\\w"],
    ["file:///Users/sam/a", "file://~/a"],
    ["file:///C:/Users/Ann/a", "file:///~/a"],
    ["in /home/sam.", "in ~."],
    ["an escaped slash: \\/home\\/sam\\/x", "an escaped slash: ~\\/x"],
    ["WSL: /mnt/c/Users/Ann/x", "WSL: ~/x"],
    ["Git Bash: /c/Users/Ann", "Git Bash: ~"],
    ["Cygwin: /cygdrive/d/Users/Ann/x", "Cygwin: ~/x"],
  ])("%s → %s", (input, expected) => {
    const { value, counts } = redactText(input, home);
    expect(value).toBe(expected);
    expect(Object.keys(counts)).toEqual(["home-path"]);
  });

  it.each(["/home/", "/home", "/homework/x", "/Users/", "/data/home/sam", "~/home/x", "C:\\Program Files\\x", "/usr/home", "/mnt/data/Users"])(
    "leaves %s alone",
    (input) => {
      expect(redactText(input, home)).toEqual({ value: input, counts: {}, total: 0 });
    },
  );

  it("reads a JSON-escaped Windows path in a JSONL line as the path it is", () => {
    const line = JSON.stringify({ type: "session", id: "s", cwd: "C:\\Users\\Ann\\work" });
    expect(line).toContain("C:\\\\Users\\\\Ann");
    const redacted = redactJsonl(line, home);
    expect(JSON.parse(redacted.value)).toEqual({ type: "session", id: "s", cwd: "~\\work" });
    expect(redacted.counts).toEqual({ "home-path": 1 });
  });
});

describe("pi's session folders, named after a working directory", () => {
  it.each([
    ["/root/.pi/agent/sessions/--home-alice-proj--/x.jsonl", "/root/.pi/agent/sessions/--home-~--/x.jsonl"],
    // a user of two words: where the name ends cannot be told, so the project goes with it
    ["--home-ann-lee-proj--", "--home-~--"],
    ["/x/--Users-sam-code-api-server--/y", "/x/--Users-~--/y"],
    ["C:\\Users\\Ann\\.pi\\agent\\sessions\\--C--Users-Ann-proj--\\s.jsonl", "~\\.pi\\agent\\sessions\\--C--Users-~--\\s.jsonl"],
    ["/home/alice/.pi/agent/sessions/--home-alice-my--proj--/x.jsonl", "~/.pi/agent/sessions/--home-~--/x.jsonl"],
    ["/x/--home-alice-My Project--/y", "/x/--home-~--/y"],
    ['"--home-alice-proj--"', '"--home-~--"'],
    ["ls: --home-alice-proj-- is a folder", "ls: --home-~-- is a folder"],
    // cut off before its closing "--": its first part, the user, still goes
    ["/sessions/--home-alice", "/sessions/--home-~"],
  ])("%s → %s", (input, expected) => {
    expect(redactText(input, home).value).toBe(expected);
  });

  it("finds nothing again in what it wrote", () => {
    const once = redactText("/home/alice/.pi/agent/sessions/--home-alice-proj--/x.jsonl --Users-bob-x-- /x/--home-carol", home);
    expect(once.value).toBe("~/.pi/agent/sessions/--home-~--/x.jsonl --Users-~-- /x/--home-~");
    expect(redactText(once.value, home)).toEqual({ value: once.value, counts: {}, total: 0 });
  });

  it.each(["useradd --home-dir /x --shell /bin/sh", "cmd --home-dir foo -- bar", "npm --homepage", "a--home-x--"])("leaves %s alone", (input) => {
    expect(redactText(input, home).value).toBe(input);
  });
});
