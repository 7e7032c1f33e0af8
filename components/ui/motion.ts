/**
 * How long a viewport move may animate: not at all for people who asked
 * their system for less motion (and for the e2e suite, which asks the same).
 */
export function motionMs(ms: number): number {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : ms;
}
