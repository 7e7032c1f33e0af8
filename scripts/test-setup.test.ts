// `npm test`'s set-up step: what it decides on machines with and without each browser, as root and not.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REQUIREMENTS, chromiumPath, isPresent, requirementPath } from "./requirements.cjs";
import { planSetup, stopMessage } from "./test-setup.mjs";

const ALL = REQUIREMENTS.map((r) => r.id);
const without = (...ids: string[]) => new Set(ALL.filter((id) => !ids.includes(id)));
const debian = (present: Set<string>, root: boolean) => ({ present, apt: true, root, playwrightChromium: "absent" as const });
const elsewhere = (present: Set<string>, playwrightChromium: "installed" | "absent" | "failed" = "absent") => ({
  present,
  apt: false,
  root: true,
  playwrightChromium,
});
const ids = (requirements: { id: string }[]) => requirements.map((r) => r.id);

describe("planSetup", () => {
  it("does nothing where everything is present, root or not, Debian or not", () => {
    for (const machine of [debian(new Set(ALL), true), debian(new Set(ALL), false), elsewhere(new Set(ALL))]) {
      expect(planSetup(machine)).toEqual({ apt: [], playwright: false, missing: [], slower: [] });
    }
  });

  it("installs every package of the list on a bare Debian as root, the speed-only one too", () => {
    expect(planSetup(debian(new Set(), true))).toEqual({
      apt: ["chromium", "chromium-headless-shell", "firefox-esr", "webkit2gtk-driver", "xvfb", "postgresql"],
      playwright: false,
      missing: [],
      slower: [],
    });
  });

  it.each(REQUIREMENTS.map((r) => [r.id, r.debian]))("installs only %s's package (%s) when only it is missing, as root", (id, pkg) => {
    expect(planSetup(debian(without(id), true)).apt).toEqual([pkg]);
  });

  it.each(REQUIREMENTS.filter((r) => !r.speedOnly).map((r) => [r.id]))("stops for a missing %s on Debian when not root", (id) => {
    const plan = planSetup(debian(without(id), false));
    expect(plan).toMatchObject({ apt: [], playwright: false });
    expect(ids(plan.missing)).toEqual([id]);
  });

  it("runs without the headless shell when it cannot be installed, and says it will be slower", () => {
    const plan = planSetup(debian(without("chromium-headless-shell"), false));
    expect(plan.missing).toEqual([]);
    expect(ids(plan.slower)).toEqual(["chromium-headless-shell"]);
  });

  it("never downloads Playwright's Chromium on Debian: its own package is the way", () => {
    expect(ids(planSetup(debian(without("chromium"), false)).missing)).toEqual(["chromium"]);
  });

  it("elsewhere, downloads Playwright's Chromium once, and uses it once it is there", () => {
    expect(planSetup(elsewhere(without("chromium")))).toMatchObject({ playwright: true, missing: [] });
    expect(planSetup(elsewhere(without("chromium"), "installed"))).toMatchObject({ playwright: false, missing: [] });
    expect(ids(planSetup(elsewhere(without("chromium"), "failed")).missing)).toEqual(["chromium"]);
  });

  it("elsewhere, stops for Firefox, WebKit, Xvfb and PostgreSQL, which only Debian's packages provide here", () => {
    const plan = planSetup(elsewhere(new Set(["chromium"])));
    expect(ids(plan.missing)).toEqual(["firefox", "webkit", "xvfb", "postgresql"]);
    expect(ids(plan.slower)).toEqual(["chromium-headless-shell"]);
  });
});

describe("stopMessage", () => {
  it("names each missing thing, what needs it and where it was looked for, and the one apt-get command", () => {
    const missing = REQUIREMENTS.filter((r) => r.id === "firefox" || r.id === "xvfb");
    const message = stopMessage(missing, { apt: true, root: false });
    expect(message).toContain("Firefox ESR, for e2e/firefox.spec.ts");
    expect(message).toContain("/usr/bin/firefox-esr (or FIREFOX_PATH)");
    expect(message).toContain("/usr/bin/Xvfb (or XVFB_PATH)");
    expect(message.split("\n").filter((line) => line.includes("apt-get"))).toEqual(["  sudo apt-get install -y --no-install-recommends firefox-esr xvfb"]);
  });

  it("puts the speed-only package in the same command", () => {
    const [firefox, shell] = ["firefox", "chromium-headless-shell"].map((id) => REQUIREMENTS.find((r) => r.id === id)!);
    const message = stopMessage([firefox!], { apt: true, root: false }, [shell!]);
    expect(message).toContain("  sudo apt-get install -y --no-install-recommends firefox-esr chromium-headless-shell");
    expect(message).not.toContain("headless shell, for");
  });

  it("off Debian, gives the one command that runs the suite in Debian", () => {
    const message = stopMessage(
      REQUIREMENTS.filter((r) => r.id === "webkit"),
      { apt: false, root: false },
    );
    expect(message).toContain("MiniBrowser (or MINIBROWSER_PATH)");
    expect(message).toContain("docker run --rm");
    expect(message).not.toContain("apt-get install");
  });
});

describe("paths", () => {
  it("take the environment's override, else the Debian path", () => {
    expect(requirementPath("firefox", 0, {})).toBe("/usr/bin/firefox-esr");
    expect(requirementPath("firefox", 0, { FIREFOX_PATH: "/opt/ff/firefox" })).toBe("/opt/ff/firefox");
    expect(requirementPath("webkit", 1, {})).toMatch(/MiniBrowser$/);
    const webkit = REQUIREMENTS.find((r) => r.id === "webkit")!;
    expect(isPresent(webkit, {}, (p: string) => p === "/usr/bin/WebKitWebDriver")).toBe(false);
    expect(isPresent(webkit, { MINIBROWSER_PATH: "/x" }, (p: string) => p === "/usr/bin/WebKitWebDriver" || p === "/x")).toBe(true);
  });

  it("find Chromium: the override, else Debian's, else Playwright's own download", () => {
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/c" }, () => false)).toBe("/opt/c");
    expect(chromiumPath({}, (p: string) => p === "/usr/bin/chromium")).toBe("/usr/bin/chromium");
    // with nothing anywhere, the Debian path, which the set-up step reports as missing
    expect(chromiumPath({}, () => false)).toBe("/usr/bin/chromium");
  });

  it("find PostgreSQL's programs in the folder of the newest major version Debian installed, or where told", () => {
    expect(requirementPath("postgresql", 0, {})).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/);
    expect(requirementPath("postgresql", 1, {})).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/postgres$/);
    expect(requirementPath("postgresql", 1, { PG_POSTGRES_PATH: "/opt/pg/bin/postgres" })).toBe("/opt/pg/bin/postgres");
  });
});

describe("the step itself", () => {
  it("finds everything where the variables point at existing files, installs nothing and says it is ready", () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const r of REQUIREMENTS) for (const f of r.files) env[f.env] = process.execPath;
    const result = spawnSync(process.execPath, [path.join(__dirname, "test-setup.mjs")], { env, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Ready: Chromium, Chromium's headless shell, Firefox ESR");
    expect(result.stdout).toContain("PostgreSQL's server programs");
    expect(result.stdout).not.toContain("apt-get");
  });
});
