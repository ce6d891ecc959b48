import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Settings } from "../config/env";
import { s3Client } from "./s3-objects";

/**
 * A local S3 implementation (s3rver, from the npm registry) on a random port
 * over a temporary folder, with one bucket: what the blob-store tests and the
 * S3 e2e run against, so `npm test` needs nothing else running.
 */
export async function startLocalS3(bucket = "svc-test-blobs", port = 0): Promise<{ settings: S3Settings; stop(): Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), "svc-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory });
  const address = await server.run();
  const settings: S3Settings = {
    bucket,
    endpoint: `http://127.0.0.1:${address.port}`,
    region: "us-east-1",
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
  };
  const client = s3Client(settings);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    settings,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
