// Checkpoint.decode on both lines: a stored checkpoint read back, or a CheckpointError saying in one
// sentence what is wrong with the text (never a throw, never a schema dump). The words for each
// damage are core's (core/test/walk/Checkpoint.test.ts).
import * as Checkpoint from "@broker-history/core/walk/Checkpoint"
import { describe, expect, it } from "vitest"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"

describe.each(Lines.all)("Checkpoint.decode ($name)", (line) => {
  it("reads back what encode wrote", () => {
    const cp = { time: 5, ids: ["a", "b"] }
    expect(success(line.decodeCheckpoint(Checkpoint.encode(cp)))).toEqual(cp)
    expect(success(line.decodeCheckpoint("{\"time\":0,\"ids\":[]}"))).toEqual({ time: 0, ids: [] })
  })

  it("fails with a CheckpointError of one sentence, naming what is wrong", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["{garbage", /is not JSON/],
      ["", /\(empty text\) is not JSON/],
      ["null", /is null, not an object/],
      ["[1,2]", /is an array, not an object/],
      ["\"text\"", /is a string, not an object/],
      ["{\"time\":-1,\"ids\":[]}", /has time -1, which is not a Unix time in ms/],
      ["{\"time\":1.5,\"ids\":[]}", /has time 1.5, which is not a Unix time in ms/],
      ["{\"time\":\"5\",\"ids\":[]}", /has time "5", which is not a Unix time in ms/],
      ["{\"ids\":[]}", /has no time/],
      ["{\"time\":5}", /has no ids/],
      ["{\"time\":5,\"ids\":[1]}", /has ids that are not a list of texts/]
    ]
    for (const [text, message] of cases) {
      const error = failure(line.decodeCheckpoint(text))
      expect(error._tag).toBe("CheckpointError")
      expect(error.message, text).toMatch(message)
      expect(error.message, text).toMatch(/^the checkpoint /)
      expect(error.fields["text"]).toBe(text)
      // One sentence: no line breaks, no schema dump.
      expect(error.message).not.toContain("\n")
      expect(error.message).not.toMatch(/Expected|└─|Struct/)
    }
  })

  it("quotes a long damaged text only in part", () => {
    const error = failure(line.decodeCheckpoint(`{${"x".repeat(5000)}`))
    expect(error.message.length).toBeLessThan(300)
  })
})
