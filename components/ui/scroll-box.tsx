"use client";
// A box with a height (or width) limit whose content may not fit: a named region that takes a tab stop while,
// and only while, its content overflows, so it can be scrolled with the keyboard too (WCAG 2.1.1; axe's
// scrollable-region-focusable). A box with nothing to scroll stays out of the tab order.
import { useEffect, useRef, useState, type ReactNode } from "react";

/** Whether the element's content overflows its box, rechecked after each render and when either is resized. */
export function useOverflows<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    check();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => observer.disconnect();
  });
  return { ref, overflows };
}

// Drawn inside the box: a box that scrolls is often flush with the edge of another that clips.
const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600";

/** A `div` (or `pre`) of class `className` (its size limit and overflow among them), named `label` for screen readers. */
export function ScrollBox({
  label,
  labelledBy,
  as = "div",
  className = "",
  testId,
  children,
}: {
  label?: string;
  labelledBy?: string;
  as?: "div" | "pre";
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const { ref, overflows } = useOverflows<HTMLDivElement & HTMLPreElement>();
  const Tag = as;
  return (
    <Tag
      ref={ref}
      role="region"
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      tabIndex={overflows ? 0 : undefined}
      className={`${className} ${focusRing}`}
      data-testid={testId}
    >
      {children}
    </Tag>
  );
}
