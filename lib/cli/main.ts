// `npm run --silent cli -- …`: the CLI from the repository (lib/cli/run.ts); the installed package's command
// (lib/cli/pi-session-viewer.ts) runs the same.
import { runCli } from "./run";

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
