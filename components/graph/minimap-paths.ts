// What the minimap draws: the cards as one path per fill, and the box around them (see GraphMiniMap.tsx).
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A card as the minimap sees it: where it is (a layout box), named by its key. */
export interface MiniCard extends Box {
  key: string;
}

export interface MiniCards {
  paths: [string, string][];
  bounds: Box | null;
}

/** Rectangles grouped by fill, as path data, and the box around them all. */
export function drawCards(cards: Iterable<MiniCard>, colorOf: (key: string) => string): MiniCards {
  const byColor = new Map<string, string[]>();
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let any = false;
  for (const card of cards) {
    any = true;
    const { x, y } = card;
    const w = card.width;
    const h = card.height;
    const color = colorOf(card.key);
    let parts = byColor.get(color);
    if (!parts) byColor.set(color, (parts = []));
    parts.push(`M${x},${y}h${w}v${h}h${-w}z`);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + w);
    y1 = Math.max(y1, y + h);
  }
  const paths = [...byColor].map(([color, parts]): [string, string] => [color, parts.join("")]);
  return { paths, bounds: any ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null };
}

export function union(a: Box | null, b: Box): Box {
  if (!a) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
