import { createHash } from "node:crypto";
import { expect, test } from "./fixtures";
import {
  anna,
  bearer,
  call,
  dataApiToken,
  expectCommonAuthCases,
  loadDataApi,
  olaf,
  tokenSet,
  type OperationCase,
  type TokenSet,
} from "./data-api-helpers";
import type { OpenApiValidator } from "./openapi-validator";

/**
 * Device file portability over HTTP: fetch job (202, Location, Retry-After)
 * → poll → the original encrypted file exactly once, identical by SHA-256 to
 * the manifest; the subject boundary; the common authorization cases.
 */
test.describe.configure({ mode: "serial" });

const FETCH = "/devices/{device_id}/files/{filename}/fetch";
const JOB = "/devices/jobs/{job_id}";
const DOWNLOAD = "/devices/jobs/{job_id}/download";

test.describe("Data API: device file fetch", () => {
  let api: OpenApiValidator;
  let tokens: TokenSet;
  let olafToken: string;
  let deviceId: number;
  let file: { filename: string; sha256: string; byte_size: number };

  test.beforeAll(async ({ request, baseURL }) => {
    api = await loadDataApi(request);
    tokens = await tokenSet(baseURL!, request, anna);
    olafToken = (await dataApiToken(baseURL!, olaf)).token;
    deviceId = (await call(request, api, { template: "/devices", path: "/devices" }, tokens.full)).body.data[0].id;
    file = (await call(request, api, { template: "/devices/{device_id}/files", path: `/devices/${deviceId}/files` }, tokens.full)).body
      .data[0];
  });

  const fetchPath = () => `/devices/${deviceId}/files/${encodeURIComponent(file.filename)}/fetch`;

  async function fetchAndWait(request: Parameters<typeof call>[0], token: string) {
    const created = await call(request, api, { method: "post", template: FETCH, path: fetchPath() }, token);
    expect(created.status).toBe(202);
    expect(created.response.headers()["location"]).toBe(created.body.data.links.self);
    expect(Number(created.response.headers()["retry-after"])).toBeGreaterThan(0);
    const jobId: string = created.body.data.job_id;
    for (let i = 0; i < 60; i++) {
      const status = await call(request, api, { template: JOB, path: `/devices/jobs/${jobId}` }, token);
      expect(status.status).toBe(200);
      if (status.body.data.status !== "queued" && status.body.data.status !== "running") return status.body.data;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error("fetch job never finished");
  }

  test("fetch → poll → the original bytes exactly once", async ({ request, baseURL }) => {
    const job = await fetchAndWait(request, tokens.full);
    expect(job).toMatchObject({
      kind: "fetch",
      status: "succeeded",
      device_id: deviceId,
      filename: file.filename,
      sha256: file.sha256,
      byte_size: file.byte_size,
    });
    expect(job.job_id).toMatch(/^dvj_[A-Za-z0-9_-]{22}$/);

    // Not Olaf's, nor another application's of Anna's.
    const otherAppOfAnna = (await dataApiToken(baseURL!, anna)).token;
    for (const token of [olafToken, otherAppOfAnna]) {
      const status = await call(request, api, { template: JOB, path: `/devices/jobs/${job.job_id}` }, token);
      expect(status.status).toBe(404);
      const taken = await call(request, api, { method: "post", template: DOWNLOAD, path: `/devices/jobs/${job.job_id}/download` }, token);
      expect(taken.status).toBe(404);
    }

    const download = await request.post(`/api/v1/devices/jobs/${job.job_id}/download`, { headers: bearer(tokens.full) });
    expect(download.status()).toBe(200);
    await api.check("post", DOWNLOAD, download);
    expect(download.headers()["content-type"]).toBe("application/octet-stream");
    expect(download.headers()["content-disposition"]).toContain(`filename="${file.filename}"`);
    expect(
      createHash("sha256")
        .update(await download.body())
        .digest("hex"),
    ).toBe(file.sha256);

    const again = await call(
      request,
      api,
      { method: "post", template: DOWNLOAD, path: `/devices/jobs/${job.job_id}/download` },
      tokens.full,
    );
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found");
    const after = await call(request, api, { template: JOB, path: `/devices/jobs/${job.job_id}` }, tokens.full);
    expect(after.body.data).toMatchObject({ status: "consumed", links: { download: null } });
  });

  test("another person's unit or an unknown file is a 404; a malformed name a 400", async ({ request }) => {
    const hisDevice = (await call(request, api, { template: "/devices", path: "/devices" }, olafToken)).body.data[0].id;
    const his = await call(
      request,
      api,
      { method: "post", template: FETCH, path: `/devices/${hisDevice}/files/${encodeURIComponent(file.filename)}/fetch` },
      tokens.full,
    );
    expect(his.status).toBe(404);
    const unknown = await call(
      request,
      api,
      { method: "post", template: FETCH, path: `/devices/${deviceId}/files/no-such-file.svc/fetch` },
      tokens.full,
    );
    expect(unknown.status).toBe(404);
    const control = await call(
      request,
      api,
      { method: "post", template: FETCH, path: `/devices/${deviceId}/files/bad%01name.svc/fetch` },
      tokens.full,
    );
    expect(control.status).toBe(400);
    expect(control.body.error_description).toMatch(/^filename: /);
  });

  test("every device file operation passes the common authorization cases", async ({ request }) => {
    const job = await fetchAndWait(request, tokens.full);
    const dataOnly = ["data"] as OperationCase["surfaces"];
    const cases: OperationCase[] = [
      { method: "post", template: FETCH, path: fetchPath(), scopes: ["devices:files"], surfaces: dataOnly },
      { template: JOB, path: `/devices/jobs/${job.job_id}`, scopes: ["devices:files"], surfaces: dataOnly },
      { method: "post", template: DOWNLOAD, path: `/devices/jobs/${job.job_id}/download`, scopes: ["devices:files"], surfaces: dataOnly },
    ];
    for (const op of cases) await expectCommonAuthCases(request, api, op, tokens);
  });
});
