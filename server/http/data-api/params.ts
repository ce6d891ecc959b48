import { booleanParam, dateParam, enumParam, idParam, numberParam, textParam } from "../kernel/params";

/** Query parameter schemas of Data API operations: the kernel's (server/http/kernel/params.ts), under the Data API's names. */
export const idQuery = idParam;
export const dateQuery = dateParam;
export const textQuery = textParam;
export const booleanQuery = booleanParam;
export const enumQuery = enumParam;
export const numberQuery = numberParam;
