// Preload (`node --import`) that records every module the program resolves: the resolved URLs are
// appended, one a line, to the file named by RECORD_LOADS_FILE. Used to check what a command loads.
import { register } from "node:module"

register("./record-loads-hooks.mjs", import.meta.url, { data: { file: process.env.RECORD_LOADS_FILE } })
