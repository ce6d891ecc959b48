/**
 * A local S3 server (s3rver over a temporary folder) with one bucket, for
 * running the app against object storage without any service installed:
 * `S3_LOCAL_PORT=4569 npx tsx scripts/local-s3.ts`, then start the app with
 * S3_BUCKET=svc-local S3_ENDPOINT=http://127.0.0.1:4569 S3_FORCE_PATH_STYLE=1
 * S3_ACCESS_KEY_ID=S3RVER S3_SECRET_ACCESS_KEY=S3RVER. The e2e run with
 * E2E_S3=1 starts it this way (playwright.config.ts). Stops on SIGTERM/SIGINT
 * and deletes its folder.
 */
import { startLocalS3 } from "../server/blobs/local-s3";

const port = Number(process.env.S3_LOCAL_PORT ?? 4569);
const bucket = process.env.S3_LOCAL_BUCKET ?? "svc-local";
const local = await startLocalS3(bucket, port);
console.log(`local S3 on ${local.settings.endpoint}, bucket ${bucket}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    void local.stop().finally(() => process.exit(0));
  });
}
