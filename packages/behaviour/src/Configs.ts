/** Every line's settings the behavioural suite's settings tests run against. */
import type { ConfigLine } from "./Config.js"
import * as Effect3 from "./config/Effect3.js"
import * as Effect4 from "./config/Effect4.js"

export const all: ReadonlyArray<ConfigLine> = [Effect3.config, Effect4.config]
