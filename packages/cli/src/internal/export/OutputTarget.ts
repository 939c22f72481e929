/**
 * Where `--out PATH` writes, decided from what the path names (pure; `Output` gathers the facts):
 * stdout, straight into a device, a FIFO or an open descriptor, or a regular file replaced through a
 * temporary file beside it (created when missing); or a refusal that says what to do. Also the names
 * of the temporary files, which of them a killed run left behind, and the lines said about the outcome.
 *
 * @internal
 */
import * as Path from "node:path"

/** What a path is, as far as writing into it goes. */
export type Kind = "missing" | "file" | "directory" | "characterDevice" | "blockDevice" | "fifo" | "socket"

/** What `--out` keeps of the file it replaces. */
export interface FileFacts {
  readonly uid: number
  readonly gid: number
  /** Permission bits, setuid/setgid/sticky included (`mode & 0o7777`). */
  readonly mode: number
  /** Names of the file (hard links). */
  readonly nlink: number
}

/** An open descriptor named through `/proc/PID/fd/N` (also `/dev/fd/N`, `/dev/stdout`). */
export interface Descriptor {
  readonly pid: number
  readonly fd: number
}

/** The facts `plan` decides from. */
export interface Probe {
  /** The path as the user gave it. */
  readonly named: string
  /** Absolute, with the symlinks of its last component followed (a dangling link: where it points). */
  readonly resolved: string
  /** `resolved` is an entry of a `/proc/PID/fd` directory. */
  readonly descriptor: Descriptor | undefined
  /** More symlinks than any real chain has: a loop. */
  readonly loop: boolean
  readonly kind: Kind
  /** Why `resolved` could not even be looked at (an error code other than ENOENT). */
  readonly unreachable: string | undefined
  /** The existing file's facts (`kind` "file"). */
  readonly file: FileFacts | undefined
  /** Why the user may not write `resolved` (an `access` error code such as EACCES or EROFS). */
  readonly notWritable: string | undefined
  /** The directory of `resolved` (undefined: it does not exist). */
  readonly directory: {
    /** Why the user may not create files in it. */
    readonly notWritable: string | undefined
    /** The sticky bit (as on /tmp): only a file's owner may replace it. */
    readonly sticky: boolean
    readonly uid: number
  } | undefined
}

/** How the export is written. */
export type Plan =
  /** The process's own stdout (`/dev/stdout`, `/dev/fd/1`). */
  | { readonly _tag: "Stdout" }
  /** Straight into a device, a FIFO (`w`) or an open descriptor (`a`: appended, never truncated). */
  | { readonly _tag: "Direct"; readonly path: string; readonly flags: "w" | "a" }
  /** A new file, written beside `path` and renamed to it once complete. */
  | { readonly _tag: "Create"; readonly path: string }
  /** A regular file, written beside it and renamed over it once complete, with `previous`'s owner, group and mode. */
  | { readonly _tag: "Replace"; readonly path: string; readonly previous: FileFacts }
  | { readonly _tag: "Refuse"; readonly message: string }

/** The descriptor that `name` in the real directory `directory` stands for, if it is a `/proc/PID/fd` entry. */
export const descriptorIn = (directory: string, name: string): Descriptor | undefined => {
  const proc = /^\/proc\/(\d+)(?:\/task\/\d+)?\/fd$/.exec(directory)
  return proc === null || !/^\d+$/.test(name) ? undefined : { pid: Number(proc[1]), fd: Number(name) }
}

const notWritableText = (code: string, named: string) =>
  code === "EROFS"
    ? "it is on a read-only file system; give another --out path"
    : code === "EACCES" || code === "EPERM"
    ? `permission denied; make it writable (chmod u+w ${named}) or give another --out path`
    : `it cannot be written (${code}); check its permissions or give another --out path`

const refuse = (named: string, why: string): Plan => ({ _tag: "Refuse", message: `cannot write ${named}: ${why}` })

/**
 * How to write into what `probe` found, for the process `self` (its pid, and its effective uid: 0
 * is root, which the sticky bit does not stop). The file's write permission is checked as the shell
 * would, before anything is fetched; a regular file also needs a writable directory, because it is
 * written beside the file and renamed over it so that a failed export never damages it.
 */
export const plan = (probe: Probe, self: { readonly pid: number; readonly uid: number | undefined }): Plan => {
  const { descriptor, named } = probe
  if (probe.loop) return refuse(named, "too many levels of symbolic links; fix the link or give another --out path")
  if (probe.unreachable !== undefined) {
    return refuse(named, `it cannot be reached (${probe.unreachable}); check the path`)
  }
  if (descriptor !== undefined) {
    if (probe.kind === "missing") return refuse(named, `descriptor ${descriptor.fd} is not open; give a file path`)
    if (descriptor.pid === self.pid && descriptor.fd === 1) return { _tag: "Stdout" }
  }
  switch (probe.kind) {
    case "directory":
      return refuse(named, "it is a directory; give a file path")
    case "blockDevice":
      return refuse(named, "it is a block device (a disk or a partition); give a file path")
    case "socket":
      return refuse(named, "it is a socket; give a file path")
  }
  if (probe.notWritable !== undefined) return refuse(named, notWritableText(probe.notWritable, named))
  if (descriptor !== undefined) return { _tag: "Direct", path: probe.resolved, flags: "a" }
  if (probe.kind === "characterDevice" || probe.kind === "fifo") {
    return { _tag: "Direct", path: probe.resolved, flags: "w" }
  }
  const directory = Path.dirname(probe.resolved)
  if (probe.directory === undefined) {
    return {
      _tag: "Refuse",
      message: `cannot create ${named}: the directory ${directory} does not exist; create it or give another --out path`
    }
  }
  if (probe.directory.notWritable !== undefined) {
    return refuse(
      named,
      `its directory ${directory} is not writable (${probe.directory.notWritable}), and the export is written ` +
        "beside the file and renamed over it so that a failed export never damages it; give an --out path in a " +
        "directory you can write"
    )
  }
  if (probe.file === undefined) return { _tag: "Create", path: probe.resolved }
  if (
    probe.directory.sticky && self.uid !== 0 && probe.file.uid !== self.uid && probe.directory.uid !== self.uid
  ) {
    return refuse(
      named,
      "it belongs to another user in a directory where only a file's owner may replace it (sticky bit, as on /tmp); " +
        "remove it or give another --out path"
    )
  }
  return { _tag: "Replace", path: probe.resolved, previous: probe.file }
}

/** Who wrote a temporary file: the process and the host it ran on. */
export interface Owner {
  readonly pid: number
  readonly host: string
}

/** The host as it appears in a temporary file's name: letters, digits, `.` and `-`, anything else `_`. */
export const hostText = (host: string): string => host.replace(/[^A-Za-z0-9.-]/g, "_") || "host"

/**
 * The temporary file of the target named `base`: hidden, beside it, recognisable as that target's,
 * naming the process and host that write it (`nonce`: lowercase letters and digits).
 */
export const temporaryName = (base: string, owner: Owner, nonce: string): string =>
  `.${base}.${owner.pid}-${nonce}.${hostText(owner.host)}.tmp`

/** The writer of `name` if it is a temporary file of the target `base` (as `temporaryName` makes them). */
export const temporaryOwner = (base: string, name: string): Owner | undefined => {
  const prefix = `.${base}.`
  if (!name.startsWith(prefix)) return undefined
  const parts = /^(\d+)-[0-9a-z]+\.([A-Za-z0-9_.-]+)\.tmp$/.exec(name.slice(prefix.length))
  return parts === null ? undefined : { pid: Number(parts[1]), host: parts[2] }
}

/**
 * A temporary file was left behind by a run that is gone (killed): written on this host by a
 * process that no longer exists. A file of another host is never taken for one: its process cannot
 * be checked from here.
 */
export const isLeftBehind = (owner: Owner, host: string, alive: (pid: number) => boolean): boolean =>
  owner.host === hostText(host) && !alive(owner.pid)

/** What an interrupted export says (after `interrupted: `), by how it was being written. */
export const interruptedLine = (plan: Plan | undefined, named: string): string => {
  switch (plan?._tag) {
    case "Stdout":
      return "the export on stdout is incomplete"
    case "Direct":
      return `the export written to ${named} is incomplete`
    case "Create":
      return `the export is incomplete; ${named} was not created`
    default:
      return `the export is incomplete; ${named} was left untouched`
  }
}

/**
 * The notes (after `note: `) on a file replaced by a completed export: other names (hard links) that
 * keep the previous content, and an owner or group that could not be kept (`now`: what the new file has).
 */
export const replacedNotes = (
  named: string,
  previous: FileFacts,
  now: { readonly uid: number; readonly gid: number }
): ReadonlyArray<string> => {
  const notes: Array<string> = []
  if (previous.nlink > 1) {
    const others = previous.nlink - 1
    notes.push(
      `${named} had ${others} other hard link${others === 1 ? "" : "s"}; ${named} now holds the new export, ` +
        "the other names keep the previous content"
    )
  }
  if (now.uid !== previous.uid || now.gid !== previous.gid) {
    const was = `${previous.uid}:${previous.gid}`
    notes.push(
      `${named} now belongs to ${now.uid}:${now.gid} (it was ${was}): only root can give a file to another user ` +
        `or to a group you are not in; as root: chown ${was} ${named}`
    )
  }
  return notes
}
