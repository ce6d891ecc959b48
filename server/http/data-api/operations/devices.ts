import { getOwnDevice, listDeviceFilesPage, listOwnDeviceStatuses } from "../../../devices/devices";
import { defineOperation, pathId } from "../define-operation";
import { keysetPage } from "../pagination";
import { serializeDevice, serializeDeviceFile, ZDevice, ZDeviceFile } from "../serializers/devices";

/** Devices (data-api.md "Devices"): data surface only, the subject's own units, never a serial number. */
const DATA_ONLY = ["data"] as const;
const deviceParams = { device_id: pathId("device_id").describe("device identifier") };

export const listDevices = defineOperation({
  method: "get",
  path: "/devices",
  operationId: "list_devices",
  summary: "The subject's sensor units with their sanitized status, in id order",
  tag: "Devices",
  scopes: ["devices:read"],
  surfaces: DATA_ONLY,
  paged: true,
  response: ZDevice,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(ctx, query, (after, take) => listOwnDeviceStatuses(ctx.db, ctx.subjectId, { afterId: after ? Number(after[0]) : null, take }), (d) => [d.id]);
    return { data: page.rows.map(serializeDevice), meta: page.meta };
  },
});

export const getDevice = defineOperation({
  method: "get",
  path: "/devices/{device_id}",
  operationId: "get_device",
  summary: "One of the subject's units: model, firmware, when it was seen, its files and latest session",
  tag: "Devices",
  scopes: ["devices:read"],
  surfaces: DATA_ONLY,
  pathParams: deviceParams,
  response: ZDevice,
  handler: async (ctx, { params }) => ({ data: serializeDevice(await getOwnDevice(ctx.db, ctx.subjectId, params.device_id)) }),
});

export const listDeviceFiles = defineOperation({
  method: "get",
  path: "/devices/{device_id}/files",
  operationId: "list_device_files",
  summary: "Manifest of the original encrypted files kept from one of the subject's units, newest upload first",
  tag: "Devices",
  scopes: ["devices:files"],
  surfaces: DATA_ONLY,
  pathParams: deviceParams,
  paged: true,
  response: ZDeviceFile,
  handler: async (ctx, { params, query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listDeviceFilesPage(ctx.db, ctx.subjectId, params.device_id, { after: after ? [String(after[0]), Number(after[1])] : null, take }),
      (f) => [f.uploadedAtText, f.resultId],
    );
    return { data: page.rows.map(serializeDeviceFile), meta: page.meta };
  },
});

export const devicesOperations = [listDevices, getDevice, listDeviceFiles];
