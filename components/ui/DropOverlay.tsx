// The full-window hint shown while a file is dragged over a page that accepts drops.
import { Icon } from "./Icon";

export function DropOverlay({ visible, title, detail }: { visible: boolean; title: string; detail: string }) {
  if (!visible) return null;
  return (
    <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-background/70 p-6 backdrop-blur-[2px]">
      <div className="flex flex-col items-center gap-2 rounded-xl border-2 border-dashed border-accent bg-background px-10 py-8 text-center shadow-lg">
        <Icon name="upload" size={28} className="text-accent" />
        <p className="text-sm font-semibold">{title}</p>
        <p className="max-w-xs text-xs text-muted">{detail}</p>
      </div>
    </div>
  );
}
