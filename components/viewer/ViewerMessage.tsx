"use client";

// The viewer's full-pane states: errors, a cancelled load, an upload lost on reload, nothing chosen.
import type { ReactNode } from "react";
import { Button, ButtonLink } from "@/components/ui/Button";
import { cn } from "@/components/ui/cn";
import { Icon, type IconName } from "@/components/ui/Icon";
import { useViewerHost } from "./host";

interface Props {
  icon: IconName;
  tone?: "neutral" | "danger" | "warning";
  title: string;
  children?: ReactNode;
  onOpenFile?: () => void;
}

export function ViewerMessage({ icon, tone = "neutral", title, children, onOpenFile }: Props) {
  const host = useViewerHost();
  return (
    <div className="flex flex-1 items-start justify-center overflow-auto p-6 pt-[12vh]" data-testid="viewer-message">
      <div className="w-full max-w-xl">
        <div className="flex items-start gap-3">
          <span
            className={cn(
              "mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-md",
              tone === "danger" ? "bg-danger-soft text-danger" : tone === "warning" ? "bg-warning-soft text-warning" : "bg-surface-2 text-muted",
            )}
          >
            <Icon name={icon} />
          </span>
          <div className="min-w-0 flex-1">
            <h2 className="text-sm font-semibold">{title}</h2>
            <div className="mt-1 text-[13px] text-muted">{children}</div>
            <div className="mt-4 flex gap-2">
              {onOpenFile && (
                <Button variant="primary" onClick={onOpenFile}>
                  <Icon name="upload" size={14} /> Open a file…
                </Button>
              )}
              {host === "server" && (
                <ButtonLink href="/" variant="secondary">
                  Back to the library
                </ButtonLink>
              )}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
