import { describe, expect, it } from "vitest";
import { errorRetryHeaders as dataRetryHeaders, SERVICE_UNAVAILABLE_DESCRIPTION, toDataApiError } from "./data-api/errors";
import { errorRetryHeaders as resultsRetryHeaders, toResultsApiError } from "./results-api/errors";

/** Both APIs' error mappers keep their documented 503 for a lost connection, wrapped as drizzle wraps it (docs/architecture.md). */
describe("a lost database connection in both APIs' error mappers", () => {
  const lost = new Error("Failed query: select 1", {
    cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
  });

  it("results API: 503 service_unavailable with Retry-After: 1", () => {
    const error = toResultsApiError(lost);
    expect({ status: error.status, error: error.error, message: error.message }).toEqual({
      status: 503,
      error: "service_unavailable",
      message: "The service lost its database connection; retry after the time in Retry-After",
    });
    expect(resultsRetryHeaders(error)).toEqual({ "Retry-After": "1" });
  });

  it("Data API: 503 service_unavailable with Retry-After: 1", () => {
    const error = toDataApiError(lost);
    expect({ status: error.status, error: error.error, description: error.message }).toEqual({
      status: 503,
      error: "service_unavailable",
      description: SERVICE_UNAVAILABLE_DESCRIPTION,
    });
    expect(dataRetryHeaders(error)).toEqual({ "Retry-After": "1" });
  });
});
