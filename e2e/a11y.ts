import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The two widths every page is checked at. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** axe-core on the current page: no serious or critical violation (each listed with where it is). */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    blocking.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 5)
          .join(" | ")}`,
    ),
    page.url(),
  ).toEqual([]);
}

/** The page itself never scrolls sideways; wide tables scroll inside their card. */
export async function expectNoPageOverflow(page: Page) {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // The innermost elements sticking out, so a failure says what to fix.
    culprits: [...document.body.querySelectorAll("*")]
      .filter(
        (el) =>
          el.getBoundingClientRect().right > window.innerWidth + 1 &&
          ![...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .slice(0, 3)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? "").slice(0, 40)}`),
  }));
  expect(scrollWidth, `${page.url()} is ${scrollWidth}px wide in a ${innerWidth}px window: ${culprits.join(" | ")}`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** Both checks, at phone and desktop width. */
export async function checkPageAtBothWidths(page: Page, url: string) {
  for (const size of [DESKTOP, PHONE]) await checkPageAtWidth(page, url, size);
}

/** Both checks at one width: for pages so big that a test per width keeps each test short. */
export async function checkPageAtWidth(page: Page, url: string, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.goto(url);
  await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 }).catch(() => {});
  await expectNoPageOverflow(page);
  await expectAccessible(page);
}

/** The two widths by name, for a test per width. */
export const WIDTHS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

/** The open (modal) dialog passes the same checks as a page, at both widths; ends at desktop width. */
export async function checkDialogAtBothWidths(page: Page) {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  }
}
