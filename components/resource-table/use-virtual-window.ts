"use client";
// Fixed-height row windowing: only the rows in view (plus an overscan) are in the DOM, so 10,000 rows cost
// the same to render as 30. Fixed heights also mean rows never jump as the list changes.
import { useCallback, useEffect, useRef, useState } from "react";

export interface VirtualWindow {
  start: number;
  end: number;
  offsetTop: number;
  totalHeight: number;
}

export function useVirtualWindow(count: number, rowHeight: number, overscan = 8) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ scrollTop: 0, height: 800, width: 0 });

  const measure = useCallback(() => {
    const el = containerRef.current;
    if (!el) return;
    const next = { scrollTop: el.scrollTop, height: el.clientHeight || 800, width: el.clientWidth };
    // Re-render only when the rows in view move by half a row or the size changes, not per pixel scrolled.
    setViewport((prev) =>
      prev.height === next.height &&
      prev.width === next.width && Math.round((prev.scrollTop * 2) / rowHeight) === Math.round((next.scrollTop * 2) / rowHeight) ? prev : next,
    );
  }, [rowHeight]);

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    measure();
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [measure]);

  const first = Math.floor(viewport.scrollTop / rowHeight);
  const visible = Math.ceil(viewport.height / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  const window: VirtualWindow = { start, end, offsetTop: start * rowHeight, totalHeight: count * rowHeight };
  return { containerRef, window, viewport };
}
