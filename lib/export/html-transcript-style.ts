/** The inline stylesheet of the HTML transcript: system fonts only, light and dark, nothing fetched. */
export const TRANSCRIPT_CSS = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--surface:#f6f8fa;--border:#d8dee4;--accent:#0969da;--user:#0ea5e9;--assistant:#8b5cf6;--tool:#f59e0b;--summary:#f97316;--error:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--surface:#161b22;--border:#30363d;--accent:#4493f8;--error:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:860px;margin:0 auto;padding:32px 20px 64px}
h1{font-size:1.6em;line-height:1.25;margin:0 0 12px}
.facts{list-style:none;margin:0 0 28px;padding:12px 14px;border:1px solid var(--border);border-radius:8px;background:var(--surface);color:var(--muted);font-size:.9em}
.facts li{margin:2px 0}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
section{margin:0 0 18px;padding:0 0 0 14px;border-left:3px solid var(--border)}
section.user{border-color:var(--user)}
section.assistant{border-color:var(--assistant)}
section.toolResult,section.bashExecution{border-color:var(--tool)}
section.summary{border-color:var(--summary)}
section.error{border-color:var(--error)}
h2{font-size:.8em;letter-spacing:.04em;text-transform:uppercase;color:var(--muted);margin:0 0 6px;font-weight:600}
h2 .id{text-transform:none;letter-spacing:0;font-weight:400;margin-left:6px}
h2 code,h2 .meta{text-transform:none;letter-spacing:0}
.label{display:inline-block;margin-left:6px;padding:0 6px;border-radius:9px;background:#fce7f3;color:#9d174d;text-transform:none;letter-spacing:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:0 0 8px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0 0 8px;padding:10px 12px;background:var(--surface);border:1px solid var(--border);border-radius:6px}
details{margin:0 0 8px;color:var(--muted)}
summary{cursor:pointer}
blockquote{margin:0 0 8px;padding:8px 12px;background:var(--surface);border-radius:6px}
.note{color:var(--muted);font-style:italic;margin:0 0 8px}
.err{color:var(--error)}
img{max-width:100%;height:auto;border:1px solid var(--border);border-radius:6px;margin:0 0 8px}
footer{margin-top:40px;color:var(--muted);font-size:.85em}
`;
