// A server started without the start scripts (`next start`, `next dev`) has no token and would refuse everyone:
// it makes one for this run and prints the way in, as `npm start` does.
export function register(): void {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.PI_VIEWER_TOKEN || process.env.PI_VIEWER_NO_TOKEN === "1") return;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  process.env.PI_VIEWER_TOKEN = token;
  console.log(`pi session viewer: started without PI_VIEWER_TOKEN; open any page of it with ?token=${token}`);
}
