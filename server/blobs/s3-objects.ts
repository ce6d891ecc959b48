import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config/env";

/**
 * The few S3 calls the blob store makes, with the maintained AWS SDK. Object
 * keys are content addresses (`sha256/<hex>`), so a write is idempotent and
 * never overwrites other bytes.
 */
export interface ObjectStorage {
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The object as a web stream (never buffered whole), or null when it does not exist. */
  stream(sha256: string): Promise<ReadableStream<Uint8Array> | null>;
  read(sha256: string): Promise<Buffer | null>;
  delete(sha256s: string[]): Promise<void>;
}

export const objectKey = (sha256: string) => `sha256/${sha256}`;

export function createObjectStorage(settings: S3Settings, client = s3Client(settings)): ObjectStorage {
  const { bucket } = settings;
  const get = async (sha256: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(sha256) }));
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
      throw error;
    }
  };
  return {
    async put(sha256, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: "application/octet-stream",
          // The store checks the hash again: S3 refuses a body that arrived altered.
          ChecksumSHA256: Buffer.from(sha256, "hex").toString("base64"),
        }),
      );
    },
    async stream(sha256) {
      const object = await get(sha256);
      return object?.Body ? (object.Body.transformToWebStream() as ReadableStream<Uint8Array>) : null;
    },
    async read(sha256) {
      const object = await get(sha256);
      return object?.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
    },
    async delete(sha256s) {
      // DeleteObjects takes at most 1,000 keys; a missing key is not an error.
      for (let i = 0; i < sha256s.length; i += 1000) {
        const batch = sha256s.slice(i, i + 1000);
        const out = await client.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((sha) => ({ Key: objectKey(sha) })), Quiet: true } }),
        );
        if (out.Errors?.length)
          throw new Error(
            `S3 refused to delete ${out.Errors.length} object(s): ${out.Errors[0].Code ?? ""} ${out.Errors[0].Message ?? ""}`.trim(),
          );
      }
    },
  };
}

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where asked for (PutObject above): S3-compatible stores differ in what else they accept.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
