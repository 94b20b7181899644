"use client";
/**
 * A box that scrolls its content when it does not fit (a wide table on a phone, a long diff).
 * While it actually scrolls, it is a named group a keyboard can reach (tabIndex 0), so the
 * arrow keys scroll it (WCAG 2.1.1, axe's scrollable-region-focusable); while everything fits it
 * is a plain box and adds no tab stop. Whether it scrolls is measured again whenever the box or
 * its content changes size.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";

export function useScrolls<T extends HTMLElement>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === "undefined") return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of Array.from(box.children)) observer.observe(child);
    // Rows added or removed (live data) change the content's size without resizing the box.
    const mutations = new MutationObserver(() => {
      observer.disconnect();
      observer.observe(box);
      for (const child of Array.from(box.children)) observer.observe(child);
      measure();
    });
    mutations.observe(box, { childList: true });
    measure();
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, []);
  return [ref, scrolls];
}

/**
 * `label` names the box while it scrolls (e.g. the table's own name). A group, not a region: the
 * cards around it are the page's regions.
 */
export function ScrollRegion({
  label,
  className = "table-wrap",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const [ref, scrolls] = useScrolls<HTMLDivElement>();
  return (
    <div ref={ref} className={className} {...(scrolls ? { tabIndex: 0, role: "group", "aria-label": label } : {})}>
      {children}
    </div>
  );
}
