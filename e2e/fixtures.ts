import { test as base, expect } from "@playwright/test";

/**
 * The Playwright `test` of this project: every page navigation waits until
 * React has hydrated (app/_components/hydration-marker.tsx), so that typing
 * into a form is never undone by hydration on a busy machine.
 */
export const test = base.extend({
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 }).catch(() => {});
      return response;
    };
    await provide(page);
  },
});

export { expect };
