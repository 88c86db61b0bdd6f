/**
 * An upstream that is down: it takes each connection and resets it at once, so a request to it
 * fails (ECONNRESET rather than a stopped service's ECONNREFUSED; the site treats both alike). A
 * port that was closed after use would fail the same way only until the system gives it to
 * another test's server, which then answers instead.
 */
import net, { type AddressInfo } from 'node:net'

export interface DownUpstream {
  origin: string
  close(): Promise<void>
}

export function downUpstream(): Promise<DownUpstream> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      // A reset the system refuses (a peer already gone) is an error on this socket, not the test's.
      socket.on('error', () => undefined)
      socket.resetAndDestroy()
    })
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      // Listening, a failed accept (out of file descriptors) is no error of the test run's: the
      // connection waits unaccepted and the request times out, as one to a stalled service would.
      server.off('error', reject)
      server.on('error', () => undefined)
      const { port } = server.address() as AddressInfo
      resolve({ origin: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) })
    })
  })
}
