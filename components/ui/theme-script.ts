// The theme rule as an inline script for <head> (app/layout.tsx): runs before first paint, so there is no flash.
// Kept free of React so the server layout can import it.

export const THEME_KEY = "theme";

export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem("${THEME_KEY}");var d=t?t==="dark":matchMedia("(prefers-color-scheme: dark)").matches;document.documentElement.classList.toggle("dark",d)}catch(e){}})()`;
