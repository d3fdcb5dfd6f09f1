// A wide table in a box that scrolls sideways; the box takes the keyboard
// focus so arrow keys can scroll it (WCAG: scrollable regions must be reachable).
import type { ComponentChildren } from 'preact';

export function ScrollBox({ label, children }: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
