import type { NamedModels } from "../openapi/build";
import { ZAthlete, ZDeleteResponse, ZNamed, ZResultDetail, ZResultListItem, ZStroke, ZUploadResponse, ZVessel } from "./contract";
import { ZAnonymousSharedError, ZDuplicateError, ZError } from "./define-operation";
import { ZPagination } from "./pagination";

/** The results API document's named models (docs/openapi.md "Named models"), written once under components/schemas. */
export const RESULTS_API_MODELS: NamedModels = {
  Error: ZError,
  DuplicateUploadError: ZDuplicateError,
  AnonymousError: ZAnonymousSharedError,
  Pagination: ZPagination,
  ResultListItem: ZResultListItem,
  Result: ZResultDetail,
  Stroke: ZStroke,
  Vessel: ZVessel,
  // The {id, name} of an owner, track, category or pace, and the reference tables' items.
  NamedItem: ZNamed,
  Athlete: ZAthlete,
  UploadedResult: ZUploadResponse,
  DeletedResult: ZDeleteResponse,
};
