import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dataApiDocument } from "../http/data-api/openapi";
import { resultsApiDocument } from "../http/results-api/openapi";
import { API_VERSION, CHANGELOG, changelogMarkdown } from "./changelog";

/** One source of truth for the portal's /developer/changelog and docs/changelog.md (issue 30 §4). */
describe("changelog", () => {
  it("docs/changelog.md is the rendering of the list the portal page shows", () => {
    expect(readFileSync("docs/changelog.md", "utf8"), "regenerate with `npx tsx scripts/changelog.ts`").toBe(changelogMarkdown());
  });

  it("is newest first, with real dates, one entry per title a day, and every linked doc exists", () => {
    const dates = CHANGELOG.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const e of CHANGELOG) {
      expect(new Date(`${e.date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(e.date);
      if (e.doc) expect(() => readFileSync(`docs/${e.doc}`), e.doc).not.toThrow();
    }
    expect(new Set(CHANGELOG.map((e) => `${e.date} ${e.title}`)).size).toBe(CHANGELOG.length);
  });

  it("both APIs stay version 1: OpenAPI info.version is the changelog's", () => {
    expect(API_VERSION).toBe("1.0.0");
    expect(resultsApiDocument("https://results.example").info.version).toBe(API_VERSION);
    expect(dataApiDocument("https://results.example").info.version).toBe(API_VERSION);
  });
});
