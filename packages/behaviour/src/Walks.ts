/** Every line's walk the behavioural suite runs against. */
import type { WalkLine } from "./Walk.js"
import * as Effect3 from "./walk/Effect3.js"
import * as Effect4 from "./walk/Effect4.js"

export const all: ReadonlyArray<WalkLine> = [Effect3.walk, Effect4.walk]
