// s3rver ships no types; these cover the part of its API scripts/lib/s3-server.ts uses.
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface S3rverOptions {
    silent?: boolean
    directory?: string
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[]
  }

  export default class S3rver {
    constructor(options?: S3rverOptions)
    /** Creates the configured buckets with their CORS configurations. */
    configureBuckets(): Promise<void>
    /** The request handler (s3rver is a Koa application). */
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    /** Its files: an object's metadata, the ETag (quoted, as S3 sends it) among them; rejects when there is no object. */
    store: { getMetadata(bucket: string, key: string): Promise<{ etag: string }> }
  }
}
