import type { EventEmitter } from "node:events"
import { PassThrough } from "node:stream"
import { afterEach, describe, expect, it, vi } from "vitest"
import * as UndiciRequest from "../../src/request/UndiciRequest.js"

type Head = { readonly statusCode: number; readonly headers: Record<string, string | Array<string> | undefined> }

/**
 * A stand-in dispatcher: each request gets `answer`'s head and a body the test writes to; it records
 * every request's options and whether its signal was aborted.
 */
const standIn = (answer: Promise<Head> | Head = { statusCode: 200, headers: {} }) => {
  const requests: Array<{ readonly path: string; aborted: boolean; readonly signal: EventEmitter | null }> = []
  const bodies: Array<PassThrough> = []
  const dispatcher: UndiciRequest.Dispatcher = {
    request: (options) => {
      const entry = { path: options.path, aborted: false, signal: options.signal }
      options.signal?.on("abort", () => entry.aborted = true)
      requests.push(entry)
      const body = new PassThrough()
      bodies.push(body)
      return Promise.resolve(answer).then((head) => ({ ...head, body }))
    }
  }
  return { dispatcher, requests, bodies }
}

/** Every outcome `on` heard, in order. */
const recorder = () => {
  const heard: Array<unknown> = []
  const on: UndiciRequest.Outcome = {
    reply: (reply) => heard.push({ reply: { ...reply, body: Buffer.from(reply.body).toString() } }),
    timeout: () => heard.push("timeout"),
    tooLarge: (status, declared) => heard.push({ tooLarge: status, declared }),
    failed: (stage, cause) => heard.push({ failed: stage ?? "Request", cause: String(cause) })
  }
  return { heard, on }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

afterEach(() => {
  vi.useRealTimers()
})

describe("UndiciRequest", () => {
  it("a whole answer: status, first Retry-After, no Location outside 3xx, the body's chunks joined", async () => {
    const s = standIn({
      statusCode: 429,
      headers: { "retry-after": ["2", "5"], location: "http://127.0.0.1:1/elsewhere" }
    })
    const { heard, on } = recorder()
    UndiciRequest.make(s.dispatcher, 30_000, 100)("http://127.0.0.1:8080", "/page?a=1", { "x-key": "k" }, on)
    await settle()
    s.bodies[0]!.write("[1,")
    s.bodies[0]!.end("2]")
    await settle()
    expect(s.requests.map((r) => r.path)).toEqual(["/page?a=1"])
    expect(heard).toEqual([{ reply: { status: 429, retryAfter: "2", location: undefined, body: "[1,2]" } }])
  })

  it("a redirect comes back as it is, with its Location", async () => {
    const s = standIn({ statusCode: 301, headers: { location: "http://127.0.0.1:1/moved" } })
    const { heard, on } = recorder()
    UndiciRequest.make(s.dispatcher, 30_000, 100)("http://127.0.0.1:8080", "/", {}, on)
    await settle()
    s.bodies[0]!.end()
    await settle()
    expect(heard).toEqual([{
      reply: { status: 301, retryAfter: undefined, location: "http://127.0.0.1:1/moved", body: "" }
    }])
  })

  it("a body of exactly maxBytes is read whole; one byte more is tooLarge, once, and the body destroyed", async () => {
    for (const size of [16, 17]) {
      const s = standIn()
      const { heard, on } = recorder()
      UndiciRequest.make(s.dispatcher, 30_000, 16)("http://127.0.0.1:8080", "/", {}, on)
      await settle()
      // In small parts and without a Content-Length: only counting can tell.
      const body = s.bodies[0]!
      for (let i = 0; i < size && !body.destroyed; i++) body.write("x")
      if (!body.destroyed) body.end()
      await settle()
      expect(heard).toEqual(
        size === 16
          ? [{ reply: { status: 200, retryAfter: undefined, location: undefined, body: "x".repeat(16) } }]
          : [{ tooLarge: 200, declared: undefined }]
      )
      // Destroyed before its end: nothing more is read.
      expect(body.writableEnded).toBe(size === 16)
    }
  })

  it("a Content-Length above maxBytes is tooLarge before anything is read; one that is not a number is not trusted", async () => {
    const declared = standIn({ statusCode: 200, headers: { "content-length": "1073741824" } })
    const first = recorder()
    UndiciRequest.make(declared.dispatcher, 30_000, 1024)("http://127.0.0.1:8080", "/", {}, first.on)
    await settle()
    expect(first.heard).toEqual([{ tooLarge: 200, declared: 1073741824 }])
    expect(declared.bodies[0]!.destroyed).toBe(true)

    const bogus = standIn({ statusCode: 200, headers: { "content-length": "1e9" } })
    const second = recorder()
    UndiciRequest.make(bogus.dispatcher, 30_000, 1024)("http://127.0.0.1:8080", "/", {}, second.on)
    await settle()
    bogus.bodies[0]!.end("[]")
    await settle()
    expect(second.heard).toEqual([{ reply: { status: 200, retryAfter: undefined, location: undefined, body: "[]" } }])
  })

  it("a failed request is failed(undefined); a failed body is failed(\"Body\")", async () => {
    const refused: UndiciRequest.Dispatcher = { request: () => Promise.reject(new Error("connect ECONNREFUSED")) }
    const first = recorder()
    UndiciRequest.make(refused, 30_000, 1024)("http://127.0.0.1:8080", "/", {}, first.on)
    await settle()
    expect(first.heard).toEqual([{ failed: "Request", cause: "Error: connect ECONNREFUSED" }])

    const s = standIn()
    const second = recorder()
    UndiciRequest.make(s.dispatcher, 30_000, 1024)("http://127.0.0.1:8080", "/", {}, second.on)
    await settle()
    s.bodies[0]!.write("[1")
    s.bodies[0]!.destroy(new Error("other side closed"))
    await settle()
    expect(second.heard).toEqual([{ failed: "Body", cause: "Error: other side closed" }])
  })

  it("no whole answer within the timeout: timeout, once, and the request aborted; what comes later is ignored", async () => {
    vi.useFakeTimers()
    let answer: (head: Head) => void = () => {}
    const s = standIn(new Promise<Head>((resolve) => answer = resolve))
    const { heard, on } = recorder()
    UndiciRequest.make(s.dispatcher, 400, 1024)("http://127.0.0.1:8080", "/", {}, on)
    vi.advanceTimersByTime(399)
    expect(heard).toEqual([])
    vi.advanceTimersByTime(50)
    expect(heard).toEqual(["timeout"])
    expect(s.requests[0]!.aborted).toBe(true)
    vi.useRealTimers()
    answer({ statusCode: 200, headers: {} })
    await settle()
    s.bodies[0]!.end("[]")
    await settle()
    expect(heard).toEqual(["timeout"])
  })

  it("cancel aborts the request and silences every outcome; the deadline with it", async () => {
    vi.useFakeTimers()
    const s = standIn()
    const { heard, on } = recorder()
    const cancel = UndiciRequest.make(s.dispatcher, 400, 1024)("http://127.0.0.1:8080", "/", {}, on)
    cancel()
    expect(s.requests[0]!.aborted).toBe(true)
    vi.advanceTimersByTime(1000)
    expect(vi.getTimerCount()).toBe(0)
    vi.useRealTimers()
    await settle()
    s.bodies[0]!.end("[]")
    await settle()
    expect(heard).toEqual([])
  })
})

describe("UndiciRequest on the real clock", () => {
  it("its deadline timer never keeps the process alive: none is left holding it after an answer", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
    const before = timers()
    const s = standIn()
    const { heard, on } = recorder()
    UndiciRequest.make(s.dispatcher, 30_000, 100)("http://127.0.0.1:8080", "/page", {}, on)
    await settle()
    s.bodies[0]!.end("[]")
    await settle()
    expect(heard).toEqual([{ reply: { status: 200, retryAfter: undefined, location: undefined, body: "[]" } }])
    // The deadlines' ticker runs until its next tick after the last answer; a command that ends right
    // after its last request must not wait for it.
    expect(timers()).toBeLessThanOrEqual(before)
  })
})
