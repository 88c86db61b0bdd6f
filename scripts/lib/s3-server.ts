/**
 * An S3-compatible server on a free loopback port, for the tests and `npm run scale -- machines`:
 * s3rver (from npm) with one bucket and a CORS rule for the given origins, behind a plain
 * `node:http` server of ours that counts the requests it answers and can be stopped and started
 * again on the same port (an outage). Its files live in a temporary folder, removed at `close`.
 * s3rver signs and checks like S3 (its one account: S3RVER / S3RVER) but, unlike S3, neither
 * enforces a POST policy's conditions nor replaces `${filename}` in a posted key. Nor does it
 * honour `If-Match` on a GET: the server in front does, answering 412 as S3 does when the object
 * has another ETag by then.
 */
import { once } from 'node:events'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'

/** The credentials s3rver accepts, as the AWS SDK's default chain reads them from the environment. */
export const S3_SERVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }

export interface S3Server {
  /** `http://127.0.0.1:{port}`: what S3_ENDPOINT names, with S3_FORCE_PATH_STYLE=true. */
  endpoint: string
  port: number
  bucket: string
  /** Each request answered, as `METHOD /path` (query left out), in order. */
  requests: string[]
  /** The `Range` header of each of those requests ('' for none), in the same order. */
  ranges: string[]
  /** The status each of those requests was answered with, in the same order (0 while unanswered). */
  statuses: number[]
  /** Answers cut short because the client went away before the end. */
  cutShort(): number
  /** Connections open right now. */
  connections(): number
  /** The keys stored in the bucket. */
  keys(): string[]
  /** Stops answering (connections refused), keeping the port and the files. */
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}

/** S3's answer to a GET whose `If-Match` names another ETag than the object's. */
const PRECONDITION_FAILED =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-Match</Condition></Error>'

function corsRule(origins: string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('')
  return `<CORSConfiguration><CORSRule>${allowed}<AllowedMethod>POST</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`
}

export async function startS3Server({ bucket = 'slideshow-uploads', corsOrigins = [] as string[], port = 0 } = {}): Promise<S3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 's3-server-'))
  const s3 = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket, configs: corsOrigins.length ? [corsRule(corsOrigins)] : [] }] })
  await s3.configureBuckets()
  const requests: string[] = []
  const ranges: string[] = []
  const statuses: number[] = []
  let cut = 0
  const sockets = new Set<Socket>()
  const handle = s3.callback()
  let server: http.Server | null = null
  let boundPort = port

  const start = async () => {
    if (server) return
    server = http.createServer((req, res) => {
      const target = (req.url ?? '').split('?')[0]!
      requests.push(`${req.method} ${target}`)
      ranges.push(req.headers.range ?? '')
      const at = statuses.push(0) - 1
      res.once('close', () => {
        statuses[at] = res.statusCode
        if (!res.writableFinished) cut += 1
      })
      const ifMatch = req.headers['if-match']
      if (req.method !== 'GET' || !ifMatch || !target.startsWith(`/${bucket}/`)) return handle(req, res)
      // Path style, as the tests and the scale runs address it: /{bucket}/{key}.
      const key = decodeURIComponent(target.slice(bucket.length + 2))
      s3.store.getMetadata(bucket, key).then(
        ({ etag }) => {
          if (etag === ifMatch) return handle(req, res)
          res.writeHead(412, { 'Content-Type': 'application/xml' }).end(PRECONDITION_FAILED)
        },
        // No object: s3rver's own 404.
        () => handle(req, res),
      )
    })
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    server.listen(boundPort, '127.0.0.1')
    await once(server, 'listening')
    boundPort = (server.address() as AddressInfo).port
  }
  const stop = async () => {
    const running = server
    server = null
    if (!running) return
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => running.close(resolve))
  }
  await start()

  return {
    endpoint: `http://127.0.0.1:${boundPort}`,
    port: boundPort,
    bucket,
    requests,
    ranges,
    statuses,
    cutShort: () => cut,
    connections: () => sockets.size,
    keys: () => {
      const objects = path.join(directory, bucket)
      return readdirSync(objects, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'))
        .map((entry) => path.relative(objects, path.join(entry.parentPath, entry.name.slice(0, -'._S3rver_object'.length))).split(path.sep).join('/'))
    },
    stop,
    start,
    async close() {
      await stop()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
