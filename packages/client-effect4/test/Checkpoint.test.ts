// Checkpoint.decode: a stored checkpoint read back, or a typed failure saying in one sentence what is
// wrong with the text (never a throw, never a schema dump).
import { Checkpoint } from "@broker-history/client-effect4"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const failure = (text: string) => {
  const decoded = Checkpoint.decode(text)
  if (Result.isSuccess(decoded)) throw new Error(`${text} decoded to ${JSON.stringify(decoded.success)}`)
  return decoded.failure
}

describe("Checkpoint.decode", () => {
  it("reads back what encode wrote", () => {
    const cp = { time: 5, ids: ["a", "b"] }
    expect(Checkpoint.decode(Checkpoint.encode(cp))).toEqual(Result.succeed(cp))
    expect(Checkpoint.decode("{\"time\":0,\"ids\":[]}")).toEqual(Result.succeed({ time: 0, ids: [] }))
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
      const error = failure(text)
      expect(error).toBeInstanceOf(Checkpoint.CheckpointError)
      expect(error._tag).toBe("CheckpointError")
      expect(error.message, text).toMatch(message)
      expect(error.message, text).toMatch(/^the checkpoint /)
      expect(error.text).toBe(text)
      // One sentence: no line breaks, no schema dump.
      expect(error.message).not.toContain("\n")
      expect(error.message).not.toMatch(/Expected|└─|Struct/)
    }
  })

  it("quotes a long damaged text only in part", () => {
    const error = failure(`{${"x".repeat(5000)}`)
    expect(error.message.length).toBeLessThan(300)
  })
})
