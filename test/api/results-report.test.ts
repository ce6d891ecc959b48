import jsQR from "jsqr";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { getDb } from "@/server/db/client";
import { results } from "@/server/db/schema";
import { pdfText, renderPage } from "@/test/support/pdf-tools";
import { apiHarness } from "./harness";
import { call, personWithKey, resultsDocument, send, uploadRequest, type OpenApiCheck, type Person } from "./results-client";

/** A database of the file's own (test/api/harness). */
apiHarness();

/**
 * GET /results/{id}/pdf (docs/results-api.md "PDF report"): both languages,
 * the split table, the QR code's share link, every documented error and the
 * endpoint's own rate limit. What the share page shows is a browser's
 * business (e2e/results-api.spec.ts).
 */
let api: OpenApiCheck;
let coach: Person;
let resultId: number;

beforeAll(async () => {
  api = await resultsDocument();
  coach = await personWithKey("reporter");
  const trackId = await coach.track("Report basin");
  const athlete = await coach.athlete({ name: "Rosa", surname: "Privada", subscriptionActiveUntil: "2099-12-31" });
  const metadata = JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athlete] });
  const file = { bytes: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 777 }), filename: "race.svc" };
  const response = await send(
    await uploadRequest({ file, metadata }, { authorization: coach.key.authorization, "x-forwarded-proto": "https" }),
  );
  expect(response.status).toBe(201);
  resultId = (await response.json()).data.id;
});

const pdf = (query: string, authorization = coach.key.authorization) =>
  call("GET", `/api/v1/results/${resultId}/pdf${query}`, { headers: { authorization } });

describe("PDF report with QR share link", () => {
  it("English and Spanish reports: attachment, splits, wording", async () => {
    const en = await pdf("?splits=5");
    expect(en.status).toBe(200);
    await api.check("get", "/results/{id}/pdf", en);
    expect(en.headers.get("content-type")).toBe("application/pdf");
    expect(en.headers.get("content-disposition")).toMatch(/^attachment; filename="session-\d+-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const enText = pdfText(new Uint8Array(await en.arrayBuffer()));
    for (const words of ["Session report", "Splits", "Report basin", "K1", "500 m", "Stroke metrics", "Rosa Privada"])
      expect(enText).toContain(words);
    expect(enText.match(/^\s*[1-5]\s+\d+ m\s+\d:\d{2}\.\d{2}/gm)).toHaveLength(5);

    const es = await pdf("?lang=es");
    const esText = pdfText(new Uint8Array(await es.arrayBuffer()));
    for (const words of ["Informe de la sesión", "Parciales", "Embarcación", "Métricas de palada"]) expect(esText).toContain(words);
    expect(esText.match(/^\s*[1-4]\s+\d+ m\s+\d:\d{2}\.\d{2}/gm)).toHaveLength(4);
  });

  it("the QR code decodes to a share link (the page it opens: e2e/results-api.spec.ts)", async () => {
    const png = renderPage(new Uint8Array(await (await pdf("")).arrayBuffer()), 1, 150);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toMatch(/\/share\/[A-Za-z0-9_-]{20,}$/);
  });

  it("errors: 400 for splits and lang, 404 for others' results, 422 without processed data", async () => {
    for (const query of ["splits=0", "splits=21", "splits=abc", "lang=fr"]) {
      const response = await pdf(`?${query}`);
      expect(response.status, query).toBe(400);
      expect((await api.check("get", "/results/{id}/pdf", response)).message).toMatch(
        /splits must be an integer from 1 to 20|lang must be en or es/,
      );
    }
    const stranger = await personWithKey("peeker");
    const hidden = await pdf("", stranger.key.authorization);
    expect(hidden.status).toBe(404);
    await api.check("get", "/results/{id}/pdf", hidden);

    // A result whose processing failed: no strokes or derived data to report on.
    const owner = await personWithKey("unprocessed");
    const [failed] = await getDb()
      .insert(results)
      .values({
        ownerUserId: owner.userId,
        trackId: await owner.track("Unprocessed basin"),
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: "2026-01-10",
        timeOfDay: "10:00:00+01:00",
        startAt: new Date("2026-01-10T09:00:00Z"),
        utcOffsetMin: 60,
        distanceM: 500,
        durationMs: 110_000,
        targetDistanceM: 500,
        status: "failed",
      })
      .returning({ id: results.id });
    const unprocessed = await call("GET", `/api/v1/results/${failed.id}/pdf`, { headers: { authorization: owner.key.authorization } });
    expect(unprocessed.status).toBe(422);
    expect((await api.check("get", "/results/{id}/pdf", unprocessed)).error).toBe("unprocessable_session");
  });

  it("the PDF endpoint has its own per-key limit", async () => {
    const busy = await personWithKey("busyreporter");
    // Invalid parameters keep each call cheap; every call still counts. The burst starts a window.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) statuses.push((await pdf("?splits=0", busy.key.authorization)).status);
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
      expect(statuses.slice(20)).toEqual([429, 429]);
      const limited = await pdf("?splits=0", busy.key.authorization);
      expect((await api.check("get", "/results/{id}/pdf", limited)).error).toBe("rate_limited");
    } finally {
      vi.useRealTimers();
    }
  });
});
