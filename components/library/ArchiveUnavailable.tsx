// The library's page when the archive it serves cannot be reached or read: what went wrong, as the server said it
// (the URL without its password), and that the page can be loaded again once it is mended.
import { Icon, Logo } from "@/components/ui/Icon";

export function ArchiveUnavailable({ message }: { message: string }) {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <div className="flex items-center gap-3">
        <Logo />
        <h1 className="text-sm font-semibold tracking-tight">pi session viewer</h1>
      </div>
      <div
        role="alert"
        data-testid="archive-unavailable"
        className="mt-8 flex items-start gap-3 rounded-lg border border-danger/30 bg-danger-soft px-4 py-3 text-sm"
      >
        <Icon name="database" size={18} className="mt-0.5 shrink-0 text-danger" />
        <div>
          <p className="font-medium">The archive cannot be read</p>
          <p className="mt-1 font-mono text-xs break-words text-muted">{message}</p>
          <p className="mt-2 text-xs text-muted">
            The server reads it because <code className="font-mono">PI_VIEWER_DATABASE_URL</code> is set. Reload this page once it is reachable.
          </p>
        </div>
      </div>
    </main>
  );
}
