// The page's CSP (proxy.ts) forbids eval. zod compiles validators with `new Function` when it may, and probes
// for that on first use; the refused probe is reported as a CSP violation. In the browser the compiled path
// can never run anyway, so zod is told up front to validate without it.
import { config } from "zod";

config({ jitless: true });
