"use client";
// A polite screen-reader summary of how the list changes ("12 pods shown"), at most every few seconds, so
// a busy watch does not talk over everything else.
import { useEffect, useRef, useState } from "react";

export function ChangeAnnouncer({ label, count }: { label: string; count: number }) {
  const [message, setMessage] = useState("");
  const last = useRef<number | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (last.current !== undefined && last.current !== count) setMessage(`${count} ${label.toLowerCase()} shown`);
      last.current = count;
    }, 3_000);
    return () => clearTimeout(timer);
  }, [count, label]);
  return (
    <div aria-live="polite" className="sr-only">
      {message}
    </div>
  );
}
