/**
 * Resolves once `element` comes within `margin` of the viewport (at once where
 * IntersectionObserver is missing); never after `signal` aborts. Heavy client
 * libraries (three.js for the replay, Leaflet for the course map) load through
 * it, so a page whose player or map sits below the fold stays light
 * (docs/benchmarks.md "Web pages in Chromium").
 */
export function nearViewport(element: Element, signal: AbortSignal, margin = "0px"): Promise<void> {
  if (typeof IntersectionObserver === "undefined") return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          resolve();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    signal.addEventListener("abort", () => observer.disconnect());
  });
}
