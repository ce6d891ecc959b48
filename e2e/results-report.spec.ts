import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { E2E_ACCOUNTS, E2E_UNPROCESSED_DESCRIPTION } from "./accounts";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { OpenApiValidator } from "./openapi-validator";
import { startOfRateWindow } from "./helpers";
import { simulatedSvc } from "./svc-files";

test.describe("PDF report with QR share link", () => {
  test.describe.configure({ mode: "serial" });
  let api: OpenApiValidator;
  let coach: ApiKey & { context: APIRequestContext };
  let resultId: number;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-report-"));

  test.beforeAll(async ({ request, baseURL }) => {
    api = await OpenApiValidator.load(request, "/api/docs/results-api.json");
    coach = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "reporter"));
    const trackId = (await trpcMutation<{ id: number }>(coach.context, "tracks.create", { name: "Report basin" })).id;
    const athlete = (await trpcMutation<{ id: number }>(coach.context, "athletes.create", { name: "Rosa", surname: "Privada", subscriptionActiveUntil: "2099-12-31" })).id;
    const response = await request.post("/api/v1/results", {
      headers: { authorization: coach.authorization, "x-forwarded-proto": "https" },
      multipart: {
        file: { name: "race.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 777 }) },
        metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athlete] }),
      },
    });
    expect(response.status()).toBe(201);
    resultId = (await response.json()).data.id;
  });
  test.afterAll(async () => {
    await coach.context.dispose();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  function pdfText(bytes: Buffer, name: string) {
    const file = path.join(workDir, `${name}.pdf`);
    fs.writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  }

  test("English and Spanish reports: attachment, splits, wording", async ({ request }) => {
    const en = await request.get(`/api/v1/results/${resultId}/pdf?splits=5`, { headers: { authorization: coach.authorization } });
    expect(en.status()).toBe(200);
    await api.check("get", "/results/{id}/pdf", en);
    expect(en.headers()["content-type"]).toBe("application/pdf");
    expect(en.headers()["content-disposition"]).toMatch(/^attachment; filename="session-\d+-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const enText = pdfText(await en.body(), "en");
    for (const words of ["Session report", "Splits", "Report basin", "K1", "500 m", "Stroke metrics", "Rosa Privada"]) expect(enText).toContain(words);
    expect(enText.match(/^\s*[1-5]\s+\d+ m\s+\d:\d{2}\.\d{2}/gm)).toHaveLength(5);

    const es = await request.get(`/api/v1/results/${resultId}/pdf?lang=es`, { headers: { authorization: coach.authorization } });
    const esText = pdfText(await es.body(), "es");
    for (const words of ["Informe de la sesión", "Parciales", "Embarcación", "Métricas de palada"]) expect(esText).toContain(words);
    expect(esText.match(/^\s*[1-4]\s+\d+ m\s+\d:\d{2}\.\d{2}/gm)).toHaveLength(4);
  });

  test("the QR code decodes to a share link that opens a read-only page without private data", async ({ request, page }) => {
    const response = await request.get(`/api/v1/results/${resultId}/pdf`, { headers: { authorization: coach.authorization } });
    const pdf = path.join(workDir, "qr.pdf");
    fs.writeFileSync(pdf, await response.body());
    execFileSync("pdftoppm", ["-png", "-r", "150", "-f", "1", "-l", "1", pdf, path.join(workDir, "page")]);
    const pngFile = fs.readdirSync(workDir).find((f) => f.startsWith("page") && f.endsWith(".png"))!;
    const png = PNG.sync.read(fs.readFileSync(path.join(workDir, pngFile)));
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toMatch(/\/share\/[A-Za-z0-9_-]{20,}$/);

    const shared = await page.goto(qr!.data);
    expect(shared?.status()).toBe(200);
    expect(shared?.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(page.getByText("shared session (read-only)")).toBeVisible();
    await expect(page.getByRole("heading", { name: /K1 · 500 m/ })).toBeVisible();
    await expect(page.getByRole("cell", { name: "500 m" })).toBeVisible();
    const html = await page.content();
    expect(html).not.toContain("Rosa");
    expect(html).not.toContain("Privada");
    expect(html).not.toContain("SIM000");
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  });

  test("errors: 400 for splits and lang, 404 for others' results, 422 without processed data", async ({ request, baseURL }) => {
    for (const query of ["splits=0", "splits=21", "splits=abc", "lang=fr"]) {
      const response = await request.get(`/api/v1/results/${resultId}/pdf?${query}`, { headers: { authorization: coach.authorization } });
      expect(response.status(), query).toBe(400);
      expect((await api.check("get", "/results/{id}/pdf", response)).message).toMatch(/splits must be an integer from 1 to 20|lang must be en or es/);
    }
    const stranger = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "peeker"));
    const hidden = await request.get(`/api/v1/results/${resultId}/pdf`, { headers: { authorization: stranger.authorization } });
    expect(hidden.status()).toBe(404);
    await api.check("get", "/results/{id}/pdf", hidden);
    await stranger.context.dispose();

    const privileged = await createKeyPair(baseURL!, E2E_ACCOUNTS.privileged);
    const list = await (await request.get(`/api/v1/results?description=${encodeURIComponent(E2E_UNPROCESSED_DESCRIPTION)}`, { headers: { authorization: privileged.authorization } })).json();
    const unprocessed = await request.get(`/api/v1/results/${list.data[0].id}/pdf`, { headers: { authorization: privileged.authorization } });
    expect(unprocessed.status()).toBe(422);
    expect((await api.check("get", "/results/{id}/pdf", unprocessed)).error).toBe("unprocessable_session");
    await privileged.context.dispose();
  });

  test("the PDF endpoint has its own per-key limit", async ({ request, baseURL }) => {
    const busy = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "busyreporter"));
    const statuses: number[] = [];
    // Invalid parameters keep each call cheap; every call still counts.
    await startOfRateWindow();
    for (let i = 0; i < 22; i++) statuses.push((await request.get(`/api/v1/results/${resultId}/pdf?splits=0`, { headers: { authorization: busy.authorization } })).status());
    expect(statuses).toContain(429);
    await busy.context.dispose();
  });
});
