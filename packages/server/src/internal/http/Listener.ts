/**
 * The Node HTTP server under the app: each request's arrival stamped first (on Node's "request"
 * event, before the handler's fiber and its key lookup have begun, so that the checks made as of the
 * arrival do not move with that work), a `{code,msg}` answer to requests Node cannot parse and to
 * CONNECT, listening for the scope's lifetime, every connection (hung ones included) ended when the
 * scope closes.
 *
 * @internal
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Http from "node:http"
import type * as Net from "node:net"
import { connectRefused, malformedRequest } from "./Answers.js"

/** A request's arrival: wall-clock milliseconds, and `performance.now()` for durations. */
export interface Arrival {
  readonly at: number
  readonly clock: number
}

/** Arrivals, by request. */
export interface Arrivals {
  /** Stamps a request as it arrives now. */
  readonly record: (incoming: Http.IncomingMessage) => void
  /** The request's arrival; now when it was not stamped. */
  readonly of: (request: HttpServerRequest.HttpServerRequest) => Arrival
}

/** An empty record of arrivals. */
export const makeArrivals = (): Arrivals => {
  const arrivals = new WeakMap<Http.IncomingMessage, Arrival>()
  return {
    record: (incoming) => {
      arrivals.set(incoming, { at: Date.now(), clock: performance.now() })
    },
    of: (request) =>
      arrivals.get(NodeHttpServerRequest.toIncomingMessage(request)) ?? { at: Date.now(), clock: performance.now() }
  }
}

/** Where and what to serve. */
export interface Options<E, R> {
  readonly host: string
  readonly port: number
  readonly app: HttpApp.Default<E, R>
  readonly arrivals: Arrivals
  /** Called as a CONNECT is refused (it is answered without a request, so the app never sees it). */
  readonly onConnect: (request: Http.IncomingMessage) => void
}

/** Serves `app` until the scope closes; the address it listens on. */
export const serve = <E, R>(options: Options<E, R>) =>
  Effect.gen(function*() {
    const nodeServer = Http.createServer()
    // Registered before the platform's own listener: the first moment a request is seen whole.
    nodeServer.on("request", (incoming: Http.IncomingMessage) => options.arrivals.record(incoming))
    // Requests Node cannot even parse still get a `{code,msg}` body.
    nodeServer.on("clientError", (error: NodeJS.ErrnoException, socket: Net.Socket) => {
      if (error.code === "ECONNRESET" || !socket.writable) socket.destroy()
      else socket.end(malformedRequest)
    })
    // Node hands a CONNECT over as a socket, not a request; without this listener it closes the
    // connection with no answer at all. This service proxies nothing: a 405, then the socket closes.
    nodeServer.on("connect", (request: Http.IncomingMessage, socket: Net.Socket) => {
      options.onConnect(request)
      socket.on("error", () => socket.destroy())
      if (socket.writable) socket.end(connectRefused)
      else socket.destroy()
    })
    const listening = yield* Layer.build(
      NodeHttpServer.layer(() => nodeServer, { host: options.host, port: options.port })
    )
    // Runs before the server's own close, which would otherwise wait for hung requests forever.
    yield* Effect.addFinalizer(() => Effect.sync(() => nodeServer.closeAllConnections()))
    yield* HttpServer.serveEffect(options.app).pipe(Effect.provide(listening))
    return Context.get(listening, HttpServer.HttpServer).address
  })
