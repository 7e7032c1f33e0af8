"use client";

// The top bar's "Share…": opens the Share dialog for the open session.
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Icon } from "@/components/ui/Icon";
import { ShareDialog } from "./ShareDialog";

export function ShareButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setOpen(true)}
        title="Write one HTML file that opens this session in the viewer anywhere (optionally redacted and sealed)"
        data-testid="share-open"
      >
        <Icon name="share" size={14} /> Share…
      </Button>
      {open && <ShareDialog onClose={() => setOpen(false)} />}
    </>
  );
}
