"use client";

// The live tail's state in the top bar (click to pause or resume) and the Follow toggle.
import { cn } from "@/components/ui/cn";
import { Icon } from "@/components/ui/Icon";
import { liveTail, type LiveStatus } from "@/lib/client/live-tail";
import { useViewer, viewer } from "./store";

const SHOWN: Record<Exclude<LiveStatus, "off">, { text: string; dot: string; title: string }> = {
  connecting: { text: "Live", dot: "bg-warning animate-pulse", title: "Connecting to the file's live tail… Click to pause." },
  live: { text: "Live", dot: "bg-success", title: "Live: lines pi appends to this file appear as they are written. Click to pause." },
  reconnecting: {
    text: "Reconnecting",
    dot: "bg-warning animate-pulse",
    title: "The connection dropped; reconnecting. Nothing written meanwhile is lost. Click to pause.",
  },
  paused: { text: "Paused", dot: "bg-subtle", title: "Paused: the file is not followed. Click to resume from where it stopped." },
};

const PILL = "inline-flex h-6 items-center gap-1.5 rounded-full border px-2 text-[11px] font-medium whitespace-nowrap transition-colors";

export function LiveIndicator() {
  const live = useViewer((s) => s.live);
  const follow = useViewer((s) => s.follow);
  if (live === "off") return null;
  const shown = SHOWN[live];
  return (
    <div className="flex shrink-0 items-center gap-1" data-testid="live-tail">
      <button
        type="button"
        className={cn(PILL, "border-border bg-surface text-muted hover:bg-surface-2 hover:text-foreground")}
        onClick={() => (live === "paused" ? liveTail.resume() : liveTail.pause())}
        title={shown.title}
        aria-label={`${shown.text}: ${live === "paused" ? "resume" : "pause"} the live tail`}
        data-testid="live-status"
        data-status={live}
      >
        <span className={cn("h-2 w-2 rounded-full", shown.dot)} aria-hidden />
        {shown.text}
      </button>
      <button
        type="button"
        className={cn(
          PILL,
          follow ? "border-accent/40 bg-accent-soft text-accent" : "border-border bg-surface text-muted hover:bg-surface-2 hover:text-foreground",
        )}
        onClick={() => viewer.setFollow(!follow)}
        aria-pressed={follow}
        title={
          follow
            ? "Following: each new leaf is selected and shown. Click, or choose another entry, to stop."
            : "Follow: select and show each new leaf as it is written. Off, the view stays where it is."
        }
        data-testid="follow-toggle"
      >
        <Icon name="leaf" size={12} />
        Follow
      </button>
    </div>
  );
}
