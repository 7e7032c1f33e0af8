#!/usr/bin/env node
// `npm test`'s first step: makes sure the browsers the suite drives and the PostgreSQL it starts are on this machine before anything runs, so
// that a fresh machine passes with the README's command alone and a machine that cannot get them stops in seconds
// with what is missing and how to get it, instead of failing (or skipping) tests a quarter of an hour later.
// Exit 0: ready. Exit 1: stopped; the message on stderr says why.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REQUIREMENTS, isPresent, playwrightChromium } from "./requirements.cjs";

/**
 * @typedef {object} Machine
 * @property {Set<string>} present   ids of the requirements found here
 * @property {boolean} apt           Debian or Ubuntu: apt-get installs the packages REQUIREMENTS name
 * @property {boolean} root          may install packages
 * @property {"installed" | "absent" | "failed"} playwrightChromium  Playwright's own Chromium download
 */

/**
 * @typedef {object} Plan
 * @property {string[]} apt          Debian packages to install now
 * @property {boolean} playwright    download Playwright's Chromium (`npx playwright install chromium`)
 * @property {import("./requirements.cjs").Requirement[]} missing  what nothing here can provide: stop
 * @property {import("./requirements.cjs").Requirement[]} slower   speed-only requirements that stay missing
 */

/**
 * What to do on `machine`. Debian and Ubuntu as root install every missing package, the speed-only ones too. Any
 * other machine gets Chromium from Playwright's own download when Debian's is absent (the download is tried once:
 * on "failed" it is missing), and stops for everything else.
 * @param {Machine} machine
 * @returns {Plan}
 */
export function planSetup(machine) {
  const absent = REQUIREMENTS.filter((r) => !machine.present.has(r.id));
  if (machine.apt && machine.root) return { apt: absent.map((r) => r.debian), playwright: false, missing: [], slower: [] };
  const slower = absent.filter((r) => r.speedOnly);
  const missing = [];
  let playwright = false;
  for (const r of absent) {
    if (r.speedOnly || (r.playwright && machine.playwrightChromium === "installed")) continue;
    // on Debian its own package is the way (Playwright's download fails on its newer releases' libraries)
    if (r.playwright && !machine.apt && machine.playwrightChromium === "absent") playwright = true;
    else missing.push(r);
  }
  return { apt: [], playwright, missing, slower };
}

/**
 * The message for a stop: each missing thing with what needs it and where it was looked for, then the one command
 * that gets them all.
 * @param {import("./requirements.cjs").Requirement[]} missing
 * @param {Pick<Machine, "apt" | "root">} machine
 * @param {import("./requirements.cjs").Requirement[]} [slower]  speed-only ones, put in the same command
 */
export function stopMessage(missing, machine, slower = []) {
  const lines = [`npm test cannot start: ${missing.length === 1 ? "this is" : "these are"} missing.`];
  for (const r of missing) {
    const where = r.files.map((f) => `${f.path} (or ${f.env})`).join(", ");
    lines.push(`  - ${r.what}, for ${r.usedBy}: ${where}`);
  }
  const packages = [...missing, ...slower].map((r) => r.debian).join(" ");
  if (machine.apt) {
    lines.push(`Install ${missing.length === 1 ? "it" : "them"} with:`, `  sudo apt-get install -y --no-install-recommends ${packages}`);
  } else {
    lines.push(
      "They are Debian packages (WebKitGTK and Xvfb run on Linux only). Point the variables above at your own builds (PostgreSQL: its initdb and postgres programs), or run the suite in Debian:",
      `  docker run --rm -v "$PWD":/app -w /app node:20-bookworm sh -c 'npm ci && npm test'`,
    );
  }
  return lines.join("\n");
}

/** @returns {Machine} */
function probe(playwrightFailed = false) {
  const osRelease = existsSync("/etc/os-release") ? readFileSync("/etc/os-release", "utf8") : "";
  const debianLike = /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease);
  return {
    present: new Set(REQUIREMENTS.filter((r) => isPresent(r)).map((r) => r.id)),
    apt: process.platform === "linux" && debianLike && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0,
    root: typeof process.getuid === "function" && process.getuid() === 0,
    playwrightChromium: playwrightChromium() ? "installed" : playwrightFailed ? "failed" : "absent",
  };
}

/** Runs a command; `quiet` keeps its output (apt's hundreds of lines) to show only if it fails. */
function run(command, args, { env = {}, quiet = false } = {}) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: quiet ? "pipe" : "inherit", encoding: "utf8", env: { ...process.env, ...env } });
  if (quiet && result.status !== 0) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  return result.status === 0;
}

function main() {
  let machine = probe();
  let plan = planSetup(machine);
  if (plan.apt.length > 0) {
    console.log(`Installing what the browser and archive tests need (first run only): Debian ${plan.apt.join(" ")}`);
    const options = { env: { DEBIAN_FRONTEND: "noninteractive" }, quiet: true };
    if (!run("apt-get", ["update", "-qq"], options) || !run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...plan.apt], options)) {
      console.error("apt-get failed (above); what is still missing follows.");
    }
    machine = { ...probe(), root: false }; // installed or not, no second try
    plan = planSetup(machine);
  }
  if (plan.playwright && plan.missing.length === 0) {
    console.log("No Chromium here: downloading Playwright's own.");
    const ok = run(process.execPath, [fileURLToPath(new URL("../node_modules/playwright-core/cli.js", import.meta.url)), "install", "chromium"]);
    machine = probe(!ok);
    plan = planSetup(machine);
  }
  for (const r of plan.slower) console.log(`Note: without ${r.what} (Debian ${r.debian}) ${r.usedBy.replace(/, .*/, "")} runs slower.`);
  if (plan.missing.length > 0) {
    console.error(stopMessage(plan.missing, machine, plan.slower));
    return 1;
  }
  console.log(
    `Ready: ${REQUIREMENTS.filter((r) => isPresent(r) || (r.playwright && machine.playwrightChromium === "installed"))
      .map((r) => r.what)
      .join(", ")}.`,
  );
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
