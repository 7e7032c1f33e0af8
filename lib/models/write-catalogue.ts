/**
 * Writes catalogue.generated.json from pi's own model catalogue, the
 * `@earendil-works/pi-ai` dependency (its public `providers/all` module): per
 * provider and model id, the context window, the output limit and the name.
 * What the viewer needs of the ~1 MB catalogue, a tenth of its size.
 *
 * Run after updating pi-ai: npx tsx lib/models/write-catalogue.ts
 * (catalogue.test.ts fails while the file and the installed package differ).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { catalogueFromPiAi } from "./catalogue-source";

const out = path.join(__dirname, "catalogue.generated.json");
catalogueFromPiAi().then((catalogue) => {
  writeFileSync(out, `${JSON.stringify(catalogue)}\n`);
  const count = Object.values(catalogue.models).reduce((n, models) => n + Object.keys(models).length, 0);
  console.log(`wrote ${out}: ${count} models of pi-ai ${catalogue.piAi} (and of ${catalogue.older.join(", ")} where it drops them)`);
});
