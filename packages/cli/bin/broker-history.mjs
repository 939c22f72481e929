#!/usr/bin/env node
// Runs the TypeScript sources through tsx (the workspace ships sources, not a build).
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
