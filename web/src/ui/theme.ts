// Light and dark themes: the system's choice unless the player picks one.

const KEY = 'umpire.theme';

/** Applies the stored theme (or none: the system's). */
export function applyTheme(): void {
  let t: string | null = null;
  try {
    t = localStorage.getItem(KEY);
  } catch {
    t = null;
  }
  if (t === 'light' || t === 'dark') document.documentElement.dataset['theme'] = t;
  else delete document.documentElement.dataset['theme'];
}

/** Switches between light and dark. */
export function toggleTheme(): void {
  const dark =
    document.documentElement.dataset['theme'] === 'dark' ||
    (!document.documentElement.dataset['theme'] && matchMedia('(prefers-color-scheme: dark)').matches);
  try {
    localStorage.setItem(KEY, dark ? 'light' : 'dark');
  } catch {
    // Storage refused: the switch holds for this page only.
  }
  document.documentElement.dataset['theme'] = dark ? 'light' : 'dark';
}
