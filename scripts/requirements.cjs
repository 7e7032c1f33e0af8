// What the test suite runs outside Node (browsers, and the PostgreSQL server the archive's tests start): the one
// list that `npm test`'s set-up step (scripts/test-setup.mjs) checks and installs, and that the specs, tests and
// benches read their paths from. Each path can be overridden by an
// environment variable, for a machine that keeps its browsers elsewhere. CommonJS: Playwright's loader, which reads
// it from the specs, turns any ES module it loads into CommonJS, and a .mjs file then fails to load.
const { existsSync, readdirSync } = require("node:fs");

/**
 * Debian keeps each PostgreSQL major version's programs in its own folder: the newest installed, else the one
 * Debian 12's `postgresql` package brings.
 * @returns {string}
 */
function postgresBin() {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name) && existsSync(`${root}/${name}/bin/postgres`)) : [];
  const newest = versions.map(Number).sort((a, b) => b - a)[0];
  return `${root}/${newest ?? 15}/bin`;
}

/**
 * @typedef {object} Requirement
 * @property {string} id
 * @property {string} what         a person's name for it
 * @property {string} usedBy       what needs it
 * @property {string} debian       the Debian package that provides it
 * @property {{ env: string, path: string }[]} files  every file it needs (an env variable overrides each path)
 * @property {boolean} [speedOnly] the suite runs without it, only slower: installed where it can be, never a stop
 * @property {boolean} [playwright] Playwright's own download can stand in for it where Debian's package cannot
 */

/** @type {Requirement[]} */
const REQUIREMENTS = [
  {
    id: "chromium",
    what: "Chromium",
    usedBy: "the e2e suite (Playwright) and the browser bench",
    debian: "chromium",
    files: [{ env: "CHROMIUM_PATH", path: "/usr/bin/chromium" }],
    playwright: true,
  },
  {
    id: "chromium-headless-shell",
    what: "Chromium's headless shell",
    usedBy: "the e2e suite, a third faster than the full browser",
    debian: "chromium-headless-shell",
    files: [{ env: "E2E_CHROMIUM_PATH", path: "/usr/bin/chromium-headless-shell" }],
    speedOnly: true,
  },
  {
    id: "firefox",
    what: "Firefox ESR",
    usedBy: "e2e/firefox.spec.ts (share files in Firefox)",
    debian: "firefox-esr",
    files: [{ env: "FIREFOX_PATH", path: "/usr/bin/firefox-esr" }],
  },
  {
    id: "webkit",
    what: "WebKitGTK's WebKitWebDriver and MiniBrowser",
    usedBy: "e2e/webkit.spec.ts (share files in Safari's engine)",
    debian: "webkit2gtk-driver",
    files: [
      { env: "WEBKIT_DRIVER_PATH", path: "/usr/bin/WebKitWebDriver" },
      { env: "MINIBROWSER_PATH", path: "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser" },
    ],
  },
  {
    id: "xvfb",
    what: "Xvfb (a virtual display)",
    usedBy: "e2e/webkit.spec.ts (MiniBrowser needs a display)",
    debian: "xvfb",
    files: [{ env: "XVFB_PATH", path: "/usr/bin/Xvfb" }],
  },
  {
    id: "postgresql",
    what: "PostgreSQL's server programs",
    usedBy: "the archive's tests and bench (each starts a throwaway server of its own)",
    debian: "postgresql",
    files: [
      { env: "PG_INITDB_PATH", path: `${postgresBin()}/initdb` },
      { env: "PG_POSTGRES_PATH", path: `${postgresBin()}/postgres` },
    ],
  },
];

/**
 * The path of a requirement's file on this machine: its environment variable, else the default.
 * @param {string} id
 * @param {number} [index]
 * @param {Record<string, string | undefined>} [env]
 */
function requirementPath(id, index = 0, env = process.env) {
  const requirement = REQUIREMENTS.find((r) => r.id === id);
  if (!requirement) throw new Error(`unknown requirement ${id}`);
  const file = requirement.files[index];
  if (!file) throw new Error(`${id} has no file ${index}`);
  return env[file.env] || file.path;
}

/**
 * Whether every file of a requirement is here.
 * @param {Requirement} requirement
 * @param {Record<string, string | undefined>} [env]
 * @param {(path: string) => boolean} [exists]
 */
function isPresent(requirement, env = process.env, exists = existsSync) {
  return requirement.files.every((file) => exists(env[file.env] || file.path));
}

/**
 * Playwright's own Chromium, when `npx playwright install chromium` has put it on this machine; else null.
 * @param {(path: string) => boolean} [exists]
 * @returns {string | null}
 */
function playwrightChromium(exists = existsSync) {
  try {
    const path = require("playwright-core").chromium.executablePath();
    return path && exists(path) ? path : null;
  } catch {
    return null; // no playwright-core (dependencies not installed yet), or no build for this platform
  }
}

/**
 * The Chromium to drive: CHROMIUM_PATH, else Debian's, else Playwright's own download, else Debian's path.
 * @param {Record<string, string | undefined>} [env]
 * @param {(path: string) => boolean} [exists]
 */
function chromiumPath(env = process.env, exists = existsSync) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const debian = requirementPath("chromium", 0, {});
  return exists(debian) ? debian : (playwrightChromium(exists) ?? debian);
}

module.exports = { REQUIREMENTS, requirementPath, isPresent, playwrightChromium, chromiumPath };
