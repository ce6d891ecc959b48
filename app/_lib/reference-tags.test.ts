import { describe, expect, it } from "vitest";
import { entriesOf, referenceTags, tagSlug, type OpenApiDocument } from "@/app/_components/openapi-reference";
import { dataApiDocument } from "@/server/http/data-api/openapi";
import { resultsApiDocument } from "@/server/http/results-api/openapi";

describe("the API references split per tag", () => {
  it("names each tag's page by a slug of its own", () => {
    expect(tagSlug("Records and health")).toBe("records-and-health");
    expect(tagSlug("Replay embeds")).toBe("replay-embeds");
  });

  for (const [name, document] of [
    ["Data API", dataApiDocument("http://localhost:3000")],
    ["results API", resultsApiDocument("http://localhost:3000")],
  ] as const) {
    it(`${name}: every operation is on exactly one tag page, and the slugs are distinct`, () => {
      const doc = document as unknown as OpenApiDocument;
      const tags = referenceTags(doc);
      expect(new Set(tags.map((t) => t.slug)).size).toBe(tags.length);
      expect(tags.every((t) => /^[a-z0-9-]+$/.test(t.slug))).toBe(true);
      expect(tags.reduce((sum, t) => sum + t.count, 0)).toBe(entriesOf(doc).length);
      // A page of its own is small: no tag holds most of the API.
      expect(Math.max(...tags.map((t) => t.count))).toBeLessThan(entriesOf(doc).length / 2);
    });
  }
});
