// s3rver ships no types; the part server/blobs/local-s3.ts uses.
declare module "s3rver" {
  export default class S3rver {
    constructor(options: { address?: string; port?: number; silent?: boolean; directory: string; resetOnClose?: boolean });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
