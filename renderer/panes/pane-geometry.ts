// Which pane lies next to another in a direction, by where the panes are on screen (their
// rectangles), not by their order in the split tree: in a 2×2 grid, "right" of the bottom-left
// pane is the bottom-right one even though the tree lists the top-right one first.

export type FocusDirection = 'left' | 'right' | 'up' | 'down';

export interface PaneRect {
  id: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Split handles are a few pixels wide; panes closer than this count as touching. */
const EDGE_SLACK_PX = 8;

/**
 * The pane to move to from `fromId` in `direction`: among the panes entirely on that side, the
 * nearest one that shares some of the same rows (left/right) or columns (up/down), preferring the
 * one most in line with the current pane's centre; null at the edge.
 */
export function neighbourInDirection(
  rects: PaneRect[],
  fromId: string,
  direction: FocusDirection,
): string | null {
  const from = rects.find((r) => r.id === fromId);
  if (!from) return null;
  const horizontal = direction === 'left' || direction === 'right';
  let best: { id: string; gap: number; offset: number } | null = null;
  for (const r of rects) {
    if (r.id === fromId) continue;
    const gap =
      direction === 'right'
        ? r.left - from.right
        : direction === 'left'
          ? from.left - r.right
          : direction === 'down'
            ? r.top - from.bottom
            : from.top - r.bottom;
    if (gap < -EDGE_SLACK_PX) continue;
    const overlap = horizontal
      ? Math.min(from.bottom, r.bottom) - Math.max(from.top, r.top)
      : Math.min(from.right, r.right) - Math.max(from.left, r.left);
    if (overlap <= 0) continue;
    const centre = horizontal ? (from.top + from.bottom) / 2 : (from.left + from.right) / 2;
    const offset = horizontal
      ? distanceToSpan(centre, r.top, r.bottom)
      : distanceToSpan(centre, r.left, r.right);
    if (
      !best ||
      gap < best.gap - EDGE_SLACK_PX ||
      (Math.abs(gap - best.gap) <= EDGE_SLACK_PX && offset < best.offset)
    )
      best = { id: r.id, gap, offset };
  }
  return best?.id ?? null;
}

function distanceToSpan(x: number, start: number, end: number): number {
  return x < start ? start - x : x > end ? x - end : 0;
}
