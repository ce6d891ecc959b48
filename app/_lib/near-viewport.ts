/**
 * Resolves once `element` comes within `margin` of the viewport (at once where
 * IntersectionObserver is missing); never after `signal` aborts. Heavy client
 * libraries (three.js for the replay, Leaflet for the course map) load through
 * it, so a page whose player or map sits below the fold stays light
 * (docs/benchmarks.md "Web pages in Chromium").
 */
export async function nearViewport(element: Element, signal: AbortSignal, margin = "0px"): Promise<void> {
  // Never before the page's own load: on a wide screen the player can start at the fold, and three.js, the artifact
  // and WebGL's start then held the session page's load event back (issue 28 §6: 1.2 s at 1366 px).
  await pageLoaded(signal);
  if (typeof IntersectionObserver === "undefined") return;
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

/** Resolves once the document has fired its load event (at once if it has); never after `signal` aborts. */
export function pageLoaded(signal: AbortSignal): Promise<void> {
  if (typeof document === "undefined" || document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    window.addEventListener("load", done, { once: true });
    signal.addEventListener("abort", () => window.removeEventListener("load", done));
  });
}
