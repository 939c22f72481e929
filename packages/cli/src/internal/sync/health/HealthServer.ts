/**
 * The health endpoints of `sync --follow --health ADDR`, for a supervisor (Kubernetes probes, a
 * load balancer, a monitoring check): `GET /livez` and `GET /readyz`, each answered from
 * `SyncHealth` through `Readiness` (200 or 503, with a JSON body of every profile's state and last
 * success, nothing secret); anything else is 404. Bounded: no request body is read, every
 * connection closes after its answer, headers and requests time out in seconds, and only a handful
 * of connections are accepted at once.
 *
 * @internal
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Http from "node:http"
import * as Net from "node:net"
import { UsageError } from "../../shared/ExitCode.js"
import * as Health from "./Health.js"
import * as Readiness from "./Readiness.js"

/** Where the endpoints listen: `host` empty for every interface. */
export interface Address {
  readonly host: string
  readonly port: number
}

/**
 * Reads `--health`: `HOST:PORT` with an IPv4 address or `localhost`, `[IPv6]:PORT`, or `:PORT` (every
 * interface, as a container's probes need); the port 1..65535. Or the message saying what is wrong.
 */
export const parseAddress = (text: string): Either.Either<Address, string> => {
  const bad = (why: string) =>
    Either.left(
      `--health: ${
        JSON.stringify(text)
      } ${why}; give HOST:PORT (127.0.0.1:9464), [IPv6]:PORT ([::1]:9464) or :PORT (every interface)`
    )
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):([0-9]+)$/.exec(text.trim())
  if (match === null) return bad("is not an address")
  const [, v6, v4] = match
  const host = v6 ?? v4 ?? ""
  if (v6 !== undefined && Net.isIPv6(v6) === false) return bad(`has ${v6} in brackets, which is not an IPv6 address`)
  if (v6 === undefined && host !== "" && host !== "localhost" && !Net.isIPv4(host)) {
    return bad(`names the host ${host}: give an IP address (or localhost)`)
  }
  const port = Number(match[3])
  if (!Number.isInteger(port) || port < 1 || port > 65535) return bad("has a port outside 1..65535")
  return Either.right({ host, port })
}

/** The answer to one request: status and body (`undefined`: 404). */
export const answer = (
  method: string | undefined,
  url: string | undefined,
  body: Readiness.Body
): { readonly status: number; readonly body: unknown } => {
  const path = (url ?? "").split("?")[0]
  if (method !== "GET" && method !== "HEAD") return { status: 404, body: { error: "not found" } }
  if (path === "/livez") return { status: body.live ? 200 : 503, body }
  if (path === "/readyz") return { status: body.ready ? 200 : 503, body }
  return { status: 404, body: { error: "not found: GET /livez or /readyz" } }
}

/** The endpoints' server, listening while its scope is open. */
export class HealthServer extends Context.Tag("@broker-history/cli/internal/HealthServer")<HealthServer, {
  /** The address it listens on (the port it got). */
  readonly address: Address
}>() {}

/** Connections accepted at once; more are refused until one closes. */
const maxConnections = 8

/**
 * Listens on `address` until the scope closes; an address that cannot be listened on (in use, not
 * this host's) fails with a `UsageError` that starts with `flag` (`--health 127.0.0.1:9464`).
 */
export const layer = (address: Address, flag: string): Layer.Layer<HealthServer, UsageError, Health.SyncHealth> =>
  Layer.scoped(
    HealthServer,
    Effect.gen(function*() {
      const health = yield* Health.SyncHealth
      const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())
      const body = Effect.map(health.profiles, (profiles) => Readiness.report(profiles, Date.now(), health.interval))

      const server = Http.createServer({ maxHeaderSize: 8192, requestTimeout: 5_000, headersTimeout: 5_000 })
      server.maxConnections = maxConnections
      server.maxHeadersCount = 50
      server.keepAliveTimeout = 1_000
      server.on("request", (request: Http.IncomingMessage, response: Http.ServerResponse) => {
        // The body, if any, is never read: the connection closes after the answer.
        response.shouldKeepAlive = false
        runPromise(body).then(
          (report) => {
            const { body: json, status } = answer(request.method, request.url, report)
            const text = JSON.stringify(json) + "\n"
            response.writeHead(status, {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(text),
              "cache-control": "no-store",
              connection: "close"
            })
            response.end(request.method === "HEAD" ? undefined : text)
          },
          () => {
            response.writeHead(500, { connection: "close" })
            response.end()
          }
        )
      })
      server.on("clientError", (_error, socket) => socket.destroy())

      yield* Effect.acquireRelease(
        Effect.async<void, UsageError>((resume) => {
          const failed = (error: NodeJS.ErrnoException) =>
            resume(Effect.fail(
              new UsageError({
                message: `${flag}: cannot listen there (${error.code ?? error.message}${
                  error.code === "EADDRINUSE" ? ": the address is in use" : ""
                }); choose a free port and an address of this host`
              })
            ))
          server.once("error", failed)
          server.listen({ host: address.host === "" ? undefined : address.host, port: address.port }, () => {
            server.off("error", failed)
            resume(Effect.void)
          })
        }),
        () =>
          Effect.async<void>((resume) => {
            server.closeAllConnections()
            server.close(() => resume(Effect.void))
          })
      )
      const bound = server.address()
      const port = typeof bound === "object" && bound !== null ? bound.port : address.port
      return { address: { host: address.host, port } }
    })
  )

/**
 * A following sync's health (`SyncHealth`), with its endpoints on `address` when one is given (the
 * server listens before anything else starts; `flag` names it in a failure).
 */
export const layerFollow = (
  address: Address | undefined,
  flag: string,
  options: Health.Options
): Layer.Layer<Health.SyncHealth, UsageError> =>
  address === undefined
    ? Health.layer(options)
    : Layer.provideMerge(layer(address, flag), Health.layer(options))
