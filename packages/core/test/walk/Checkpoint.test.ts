import { describe, expect, it } from "vitest"
import * as Checkpoint from "../../src/walk/Checkpoint.js"

describe("Checkpoint: a stored checkpoint's text", () => {
  it("what encode writes reads back without a problem", () => {
    expect(Checkpoint.problem(Checkpoint.encode({ time: 1735689600000, ids: ["42", "43"] }))).toBeUndefined()
  })

  it("each way a text can be damaged has its own words", () => {
    expect(Checkpoint.problem("  ")).toBe("is not JSON { time, ids }")
    expect(Checkpoint.problem("{time")).toBe("is not JSON: expected { time, ids } as Checkpoint.encode writes it")
    expect(Checkpoint.problem("null")).toBe("is null, not an object { time, ids }")
    expect(Checkpoint.problem(`"x"`)).toBe("is a string, not an object { time, ids }")
    expect(Checkpoint.problem("[1,2]")).toBe("is an array, not an object { time, ids }")
    expect(Checkpoint.problem(`{"ids":[]}`)).toBe("has no time (Unix ms)")
    expect(Checkpoint.problem(`{"time":-1,"ids":[]}`)).toBe(
      "has time -1, which is not a Unix time in ms (an integer from 0)"
    )
    expect(Checkpoint.problem(`{"time":1.5,"ids":[]}`)).toBe(
      "has time 1.5, which is not a Unix time in ms (an integer from 0)"
    )
    expect(Checkpoint.problem(`{"time":"5","ids":[]}`)).toBe(
      "has time \"5\", which is not a Unix time in ms (an integer from 0)"
    )
    expect(Checkpoint.problem(`{"time":1}`)).toBe("has no ids (the ids of the records at its time)")
    expect(Checkpoint.problem(`{"time":1,"ids":[1]}`)).toBe("has ids that are not a list of texts")
  })

  it("quote: one line, shortened past 80 characters", () => {
    expect(Checkpoint.quote("a\n  b")).toBe("a b")
    expect(Checkpoint.quote(" \n ")).toBe("(empty text)")
    expect(Checkpoint.quote("x".repeat(100))).toBe(`${"x".repeat(80)}… (100 characters)`)
  })
})
