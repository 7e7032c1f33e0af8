"use client";

// Switches between the light and dark theme; the choice is remembered.
import { IconButton } from "./Button";
import { Icon } from "./Icon";
import { setTheme, useTheme } from "./theme";

export function ThemeToggle() {
  const theme = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  return (
    <IconButton label={`Switch to ${next} theme`} data-testid="theme-toggle" onClick={() => setTheme(next)} suppressHydrationWarning>
      {/* both icons render on the server; CSS shows the one for the theme in force */}
      <Icon name="moon" className="dark:hidden" />
      <Icon name="sun" className="hidden dark:block" />
    </IconButton>
  );
}
