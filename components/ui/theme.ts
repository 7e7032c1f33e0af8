// The colour theme: light or dark, stored in localStorage once the user picks one, else the system's.
// The same rule runs before first paint as THEME_SCRIPT (theme-script.ts), so there is no flash.
import { useSyncExternalStore } from "react";
import { THEME_KEY as KEY } from "./theme-script";

export type Theme = "light" | "dark";

const listeners = new Set<() => void>();

function current(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

function apply(theme: Theme): void {
  document.documentElement.classList.toggle("dark", theme === "dark");
  for (const listener of listeners) listener();
}

function stored(): Theme | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === "dark" || value === "light" ? value : null;
  } catch {
    return null; // storage disabled: the system theme applies
  }
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // storage disabled: the choice lasts until the page reloads
  }
  apply(theme);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = matchMedia("(prefers-color-scheme: dark)");
  const follow = () => {
    if (!stored()) apply(media.matches ? "dark" : "light");
  };
  media.addEventListener("change", follow);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", follow);
  };
}

/** The theme in force; null during server rendering (it is only known in the browser). */
export function useTheme(): Theme | null {
  return useSyncExternalStore(subscribe, current, () => null);
}
