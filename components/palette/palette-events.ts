// The palette is opened from anywhere (header button, Ctrl/Cmd-K) through one window event.
export const OPEN_PALETTE_EVENT = "cc-open-palette";

export function openPalette(): void {
  window.dispatchEvent(new Event(OPEN_PALETTE_EVENT));
}
