import { createKeyPair, signUpOverHttp, trpcMutation } from "./api-helpers";
import { expectAccessible, expectNoPageOverflow, PHONE } from "./a11y";
import { expect, test } from "./fixtures";
import { signInOverHttp } from "./helpers";
import { simulatedSvc } from "./svc-files";

/**
 * Comments (docs/comments.md): a coach writes a comment pointing at a split on the session page; clicking its
 * moment takes the page to that split's row, highlighted. Set up over HTTP; the flow under test in the browser.
 */
test.describe.configure({ mode: "parallel" });

const SIZES = [
  ["1366 px", { width: 1366, height: 900 }],
  ["390 px", PHONE],
] as const;

for (const [name, size] of SIZES) {
  test(`a comment pointing at a split takes the page to that split (${name})`, async ({ page, request, baseURL }) => {
    const person = await signUpOverHttp(baseURL!, "talk");
    const key = await createKeyPair(baseURL!, person);
    const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Talk basin" });
    const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
      name: "Tala",
      surname: "Talk",
      subscriptionActiveUntil: "2099-12-31",
    });
    const response = await request.post("/api/v1/results", {
      multipart: {
        file: { name: "talk.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 41 }) },
        metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
      },
      headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
    });
    expect(response.status(), await response.text()).toBe(201);
    const resultId = (await response.json()).data.id as number;
    await key.context.dispose();

    await page.setViewportSize(size);
    await signInOverHttp(page, person);
    await page.goto(`/sessions/${resultId}?splits=8`);
    await page.waitForSelector("body[data-hydrated]", { state: "attached" });
    const comments = page.getByTestId("comments");
    await comments.getByLabel("Comment", { exact: true }).fill("Rate dropped here: hold it to the line.");
    await comments.getByLabel("Points at").selectOption({ label: "Split 7 of 8" });
    await comments.getByRole("button", { name: "Post comment" }).click();
    const comment = comments.getByTestId("comment");
    await expect(comment).toContainText("Rate dropped here");
    await expectNoPageOverflow(page);
    await expectAccessible(page);

    // From the top of the page, the moment's link goes to the seventh of eight splits, highlighted.
    await page.evaluate(() => window.scrollTo(0, 0));
    const row = page.locator("#split-7");
    await comment.getByRole("link", { name: "Split 7 of 8" }).click();
    await expect(page).toHaveURL(/#split-7$/);
    await expect(row).toBeInViewport();
    await expect(row).toHaveCSS("outline-style", "solid");
    await expect(page.locator("#split-6")).not.toHaveCSS("outline-style", "solid");
  });
}
