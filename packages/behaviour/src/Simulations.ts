/** Every line's simulation the behavioural suite's clock tests run against. */
import type { SimulationLine } from "./Simulation.js"
import * as Effect3 from "./simulation/Effect3.js"
import * as Effect4 from "./simulation/Effect4.js"

export const all: ReadonlyArray<SimulationLine> = [Effect3.simulation, Effect4.simulation]
