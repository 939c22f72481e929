import { describe, expect, it } from "vitest"
import * as Proxy from "../../src/config/Proxy.js"

const problem = (checked: Proxy.Proxy | Proxy.Invalid | { readonly _tag: "Valid" }) =>
  checked._tag === "Invalid" ? checked.problem.message : undefined

describe("Proxy", () => {
  it("a proxy setting is environment, none, or a proxy URL as the WHATWG parser writes it", () => {
    expect(Proxy.parse("environment")).toEqual({ _tag: "Environment" })
    expect(Proxy.parse("none")).toEqual({ _tag: "None" })
    expect(Proxy.parse("https://user:p%40ss@proxy.internal:3128")).toEqual({
      _tag: "Url",
      url: "https://user:p%40ss@proxy.internal:3128/"
    })
  })

  it.each([
    ["", `proxy is empty; give a proxy URL, "environment" (the default) or "none"`],
    ["proxy.internal:3128", "proxy must start with http:// or https://; give one such as http://proxy.internal:3128"],
    [
      "http://[bad",
      "proxy is not a URL (not shown: it may hold credentials); give one such as http://proxy.internal:3128"
    ],
    [
      "socks5://user:secret@proxy:1080",
      "proxy must be an http:// or https:// proxy URL, got socks5://…; give one such as http://proxy.internal:3128"
    ],
    ["http://proxy:3128/path", "proxy must be the proxy's origin only (no path, query or fragment): http://proxy:3128"],
    [
      "http://user@proxy:3128",
      "proxy gives a user name without a password; write both, percent-encoded: http://user:password@host:port"
    ]
  ])("refuses %j, never showing its credentials", (text, message) => {
    expect(problem(Proxy.parse(text))).toBe(message)
    expect(message).not.toContain("secret")
  })

  it("the environment: lower case wins even when empty; https falls back to http; no_proxy as given", () => {
    expect(Proxy.fromEnvironment({})).toEqual({ _tag: "Valid", http: undefined, https: undefined, noProxy: "" })
    expect(Proxy.fromEnvironment({ HTTP_PROXY: "http://a:1", NO_PROXY: "localhost" })).toEqual({
      _tag: "Valid",
      http: "http://a:1/",
      https: "http://a:1/",
      noProxy: "localhost"
    })
    expect(Proxy.fromEnvironment({ http_proxy: "", HTTP_PROXY: "http://a:1", https_proxy: "http://b:2" })).toEqual({
      _tag: "Valid",
      http: undefined,
      https: "http://b:2/",
      noProxy: ""
    })
    expect(Proxy.fromEnvironment({ HTTPS_PROXY: "b:2" })).toEqual({
      _tag: "Invalid",
      problem: {
        setting: "HTTPS_PROXY",
        message: "HTTPS_PROXY must start with http:// or https://; give one such as http://proxy.internal:3128"
      }
    })
  })
})
