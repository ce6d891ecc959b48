import base from "./playwright.config";
// Local only (not committed): my specs against `next dev` while the build lock is taken.
export default { ...base, webServer: undefined, timeout: 120_000, use: { ...base.use, baseURL: "http://localhost:3308" } };
