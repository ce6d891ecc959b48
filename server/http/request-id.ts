import { z } from "zod";
import { randomBase62 } from "../auth/random-base62";

/**
 * The one form of a request id, in both APIs, in the `X-Request-Id` header
 * and the error bodies' `request_id`: `req_` and 22 base62 characters (131
 * random bits). Never a UUID: the privacy projection lets no UUID cross the
 * API (data-api.md "Privacy projection"), and a request id is no exception
 * (issue 21; docs/data-api.md "Request ids").
 */
export const REQUEST_ID_PATTERN = /^req_[0-9A-Za-z]{22}$/;

export const newRequestId = (): string => `req_${randomBase62(22)}`;

/** The documented form, for both APIs' error schemas (and so their OpenAPI documents). */
export const ZRequestId = z.string().regex(REQUEST_ID_PATTERN);
