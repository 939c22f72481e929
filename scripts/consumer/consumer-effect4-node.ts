// Consumer check (b), the Effect 4 line's Node-only module: the public types of
// @broker-history/client-effect4/NodeTransport (undici, node:crypto), type-checked (never run) with
// consumer-effect4.ts under tsconfig.nodenext.json.
import type { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
import type { Config, Layer } from "effect"

export const throughProxy: Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig> =
  NodeTransport.layerProxy("http://proxy.internal:3128")
export const direct: Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig> =
  NodeTransport.layerProxy("none")
export const signer = NodeTransport.layerSigner
