// Where `--out` writes, decided from the facts about the path: every kind of target, every refusal
// and its message, the temporary files' names and which of them a killed run left behind, and the
// lines said about the outcome.
import { describe, expect, it } from "@effect/vitest"
import * as OutputTarget from "../../../src/internal/export/OutputTarget.js"

const self = { pid: 100, uid: 1000 }
const file: OutputTarget.FileFacts = { uid: 1000, gid: 1000, mode: 0o644, nlink: 1 }
const writableDirectory = { notWritable: undefined, sticky: false, uid: 1000 }

const probe = (facts: Partial<OutputTarget.Probe>): OutputTarget.Probe => ({
  named: "out.ndjson",
  resolved: "/data/out.ndjson",
  descriptor: undefined,
  loop: false,
  kind: "file",
  unreachable: undefined,
  file,
  notWritable: undefined,
  directory: writableDirectory,
  ...facts
})

describe("OutputTarget.plan", () => {
  it("a regular file is replaced, keeping its facts; a missing one is created (both at the resolved path)", () => {
    expect(OutputTarget.plan(probe({}), self)).toEqual({ _tag: "Replace", path: "/data/out.ndjson", previous: file })
    expect(OutputTarget.plan(probe({ kind: "missing", file: undefined, resolved: "/data/target" }), self)).toEqual({
      _tag: "Create",
      path: "/data/target"
    })
  })

  it("devices and FIFOs are written straight into; an open descriptor is appended to, fd 1 of this process is stdout", () => {
    for (const kind of ["characterDevice", "fifo"] as const) {
      expect(OutputTarget.plan(probe({ kind, file: undefined, resolved: "/dev/null" }), self)).toEqual({
        _tag: "Direct",
        path: "/dev/null",
        flags: "w"
      })
    }
    const fd = (pid: number, n: number, kind: OutputTarget.Kind = "fifo") =>
      probe({ kind, file: undefined, resolved: `/proc/self/fd/${n}`, descriptor: { pid, fd: n } })
    expect(OutputTarget.plan(fd(100, 1), self)).toEqual({ _tag: "Stdout" })
    expect(OutputTarget.plan(fd(100, 3, "file"), self)).toEqual({ _tag: "Direct", path: "/proc/self/fd/3", flags: "a" })
    expect(OutputTarget.plan(fd(200, 1), self)).toEqual({ _tag: "Direct", path: "/proc/self/fd/1", flags: "a" })
    expect(OutputTarget.plan(fd(100, 7, "missing"), self)).toEqual({
      _tag: "Refuse",
      message: "cannot write out.ndjson: descriptor 7 is not open; give a file path"
    })
  })

  it("refuses what cannot hold an export, saying what to do", () => {
    const refused = (facts: Partial<OutputTarget.Probe>, who = self) => {
      const plan = OutputTarget.plan(probe(facts), who)
      return plan._tag === "Refuse" ? plan.message : plan._tag
    }
    expect(refused({ kind: "directory", file: undefined })).toBe(
      "cannot write out.ndjson: it is a directory; give a file path"
    )
    expect(refused({ kind: "blockDevice", file: undefined })).toBe(
      "cannot write out.ndjson: it is a block device (a disk or a partition); give a file path"
    )
    expect(refused({ kind: "socket", file: undefined })).toBe(
      "cannot write out.ndjson: it is a socket; give a file path"
    )
    expect(refused({ loop: true })).toBe(
      "cannot write out.ndjson: too many levels of symbolic links; fix the link or give another --out path"
    )
    expect(refused({ unreachable: "ENOTDIR" })).toBe(
      "cannot write out.ndjson: it cannot be reached (ENOTDIR); check the path"
    )
    // Not writable, as the shell would find: before anything is fetched.
    expect(refused({ notWritable: "EACCES" })).toBe(
      "cannot write out.ndjson: permission denied; make it writable (chmod u+w out.ndjson) or give another --out path"
    )
    expect(refused({ notWritable: "EROFS" })).toBe(
      "cannot write out.ndjson: it is on a read-only file system; give another --out path"
    )
    expect(refused({ kind: "fifo", file: undefined, notWritable: "EACCES" })).toMatch(/permission denied/)
    // The file is replaced through its directory.
    expect(refused({ directory: { ...writableDirectory, notWritable: "EACCES" } })).toBe(
      "cannot write out.ndjson: its directory /data is not writable (EACCES), and the export is written beside the " +
        "file and renamed over it so that a failed export never damages it; give an --out path in a directory you can write"
    )
    expect(refused({ kind: "missing", file: undefined, directory: undefined })).toBe(
      "cannot create out.ndjson: the directory /data does not exist; create it or give another --out path"
    )
  })

  it("a sticky directory (as /tmp): another user's file is refused, unless root or the directory's owner", () => {
    const sticky = { ...writableDirectory, sticky: true, uid: 0 }
    const others = probe({ file: { ...file, uid: 2000 }, directory: sticky })
    expect(OutputTarget.plan(others, self)._tag).toBe("Refuse")
    expect(OutputTarget.plan(others, { pid: 100, uid: 0 })._tag).toBe("Replace")
    expect(OutputTarget.plan(probe({ file: { ...file, uid: 2000 }, directory: { ...sticky, uid: 1000 } }), self)._tag)
      .toBe("Replace")
    expect(OutputTarget.plan(probe({ directory: sticky }), self)._tag).toBe("Replace")
  })
})

describe("OutputTarget.descriptorIn", () => {
  it("an entry of /proc/PID/fd (or a thread's) is an open descriptor; anything else is not", () => {
    expect(OutputTarget.descriptorIn("/proc/42/fd", "1")).toEqual({ pid: 42, fd: 1 })
    expect(OutputTarget.descriptorIn("/proc/42/task/43/fd", "3")).toEqual({ pid: 42, fd: 3 })
    expect(OutputTarget.descriptorIn("/proc/42/fd", "x")).toBeUndefined()
    expect(OutputTarget.descriptorIn("/data/proc/42/fd", "1")).toBeUndefined()
    expect(OutputTarget.descriptorIn("/dev", "stdout")).toBeUndefined()
  })
})

describe("temporary files", () => {
  const owner = { pid: 4321, host: "build-1.example" }

  it("are named after their target, process and host, and read back", () => {
    const name = OutputTarget.temporaryName("deposits.ndjson", owner, "0a1b2c3d")
    expect(name).toBe(".deposits.ndjson.4321-0a1b2c3d.build-1.example.tmp")
    expect(OutputTarget.temporaryOwner("deposits.ndjson", name)).toEqual(owner)
    // Another target's, or a name that only looks like one, is not.
    expect(OutputTarget.temporaryOwner("deposits", name)).toBeUndefined()
    expect(OutputTarget.temporaryOwner("deposits.ndjson", ".deposits.ndjson.bak")).toBeUndefined()
    expect(OutputTarget.temporaryOwner("deposits.ndjson", ".deposits.ndjson.12-x.tmp")).toBeUndefined()
    expect(OutputTarget.temporaryOwner("deposits.ndjson", "deposits.ndjson.4321-0a.host.tmp")).toBeUndefined()
  })

  it("a host's name is kept to letters, digits, dots and dashes", () => {
    expect(OutputTarget.hostText("my host/01")).toBe("my_host_01")
    expect(OutputTarget.hostText("")).toBe("host")
    const name = OutputTarget.temporaryName("a", { pid: 1, host: "my host" }, "ff")
    expect(OutputTarget.temporaryOwner("a", name)).toEqual({ pid: 1, host: "my_host" })
  })

  it("were left behind when written on this host by a process that is gone; another host's are never taken", () => {
    const alive = (pid: number) => pid === 7
    expect(OutputTarget.isLeftBehind({ pid: 8, host: "build-1.example" }, "build-1.example", alive)).toBe(true)
    expect(OutputTarget.isLeftBehind({ pid: 7, host: "build-1.example" }, "build-1.example", alive)).toBe(false)
    expect(OutputTarget.isLeftBehind({ pid: 8, host: "other" }, "build-1.example", alive)).toBe(false)
    expect(OutputTarget.isLeftBehind({ pid: 8, host: "my_host" }, "my host", alive)).toBe(true)
  })
})

describe("what is said", () => {
  it("an interruption: what became of the output, by how it was written", () => {
    const line = (plan: OutputTarget.Plan | undefined) => OutputTarget.interruptedLine(plan, "out.ndjson")
    expect(line({ _tag: "Stdout" })).toBe("the export on stdout is incomplete")
    expect(line({ _tag: "Direct", path: "/p", flags: "w" })).toBe("the export written to out.ndjson is incomplete")
    expect(line({ _tag: "Create", path: "/p" })).toBe("the export is incomplete; out.ndjson was not created")
    expect(line({ _tag: "Replace", path: "/p", previous: file })).toBe(
      "the export is incomplete; out.ndjson was left untouched"
    )
    expect(line(undefined)).toBe("the export is incomplete; out.ndjson was left untouched")
  })

  it("a replaced file: other hard links, and an owner or group that could not be kept", () => {
    expect(OutputTarget.replacedNotes("f", file, { uid: 1000, gid: 1000 })).toEqual([])
    expect(OutputTarget.replacedNotes("f", { ...file, nlink: 3, gid: 50 }, { uid: 1000, gid: 1000 })).toEqual([
      "f had 2 other hard links; f now holds the new export, the other names keep the previous content",
      "f now belongs to 1000:1000 (it was 1000:50): only root can give a file to another user or to a group you " +
      "are not in; as root: chown 1000:50 f"
    ])
  })
})
