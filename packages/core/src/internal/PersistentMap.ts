/**
 * A persistent map from text keys: an AVL tree whose nodes are never changed, so `set` and `filter`
 * return a new map that shares what did not change, and every earlier map stays as it was. `get`
 * and `set` take O(log n), `size` O(1), `filter` O(n).
 *
 * @internal
 */

/** A map: its root node, or undefined when empty. */
export type PersistentMap<V> = Node<V> | undefined

interface Node<V> {
  readonly key: string
  readonly value: V
  readonly left: PersistentMap<V>
  readonly right: PersistentMap<V>
  readonly height: number
  readonly size: number
}

export const empty: PersistentMap<never> = undefined

const heightOf = <V>(map: PersistentMap<V>): number => map === undefined ? 0 : map.height

/** The number of keys. */
export const size = <V>(map: PersistentMap<V>): number => map === undefined ? 0 : map.size

const node = <V>(key: string, value: V, left: PersistentMap<V>, right: PersistentMap<V>): Node<V> => ({
  key,
  value,
  left,
  right,
  height: 1 + Math.max(heightOf(left), heightOf(right)),
  size: 1 + size(left) + size(right)
})

// A node of `left` and `right` whose heights differ by at most 2, rotated back into balance.
const balance = <V>(key: string, value: V, left: PersistentMap<V>, right: PersistentMap<V>): Node<V> => {
  const hl = heightOf(left)
  const hr = heightOf(right)
  if (hl > hr + 1) {
    const l = left!
    if (heightOf(l.left) >= heightOf(l.right)) return node(l.key, l.value, l.left, node(key, value, l.right, right))
    const lr = l.right!
    return node(lr.key, lr.value, node(l.key, l.value, l.left, lr.left), node(key, value, lr.right, right))
  }
  if (hr > hl + 1) {
    const r = right!
    if (heightOf(r.right) >= heightOf(r.left)) return node(r.key, r.value, node(key, value, left, r.left), r.right)
    const rl = r.left!
    return node(rl.key, rl.value, node(key, value, left, rl.left), node(r.key, r.value, rl.right, r.right))
  }
  return node(key, value, left, right)
}

/** The value of `key`, or undefined when the map has none. */
export const get = <V>(map: PersistentMap<V>, key: string): V | undefined => {
  let at = map
  while (at !== undefined) {
    if (key < at.key) at = at.left
    else if (key > at.key) at = at.right
    else return at.value
  }
  return undefined
}

/** The map with `key` set to `value` (added, or replacing the value it had). */
export const set = <V>(map: PersistentMap<V>, key: string, value: V): Node<V> => {
  if (map === undefined) return node(key, value, undefined, undefined)
  if (key < map.key) return balance(map.key, map.value, set(map.left, key, value), map.right)
  if (key > map.key) return balance(map.key, map.value, map.left, set(map.right, key, value))
  return node(key, value, map.left, map.right)
}

/** The map of the entries `keep` accepts. */
export const filter = <V>(map: PersistentMap<V>, keep: (value: V, key: string) => boolean): PersistentMap<V> => {
  const kept: Array<Node<V>> = []
  const visit = (at: PersistentMap<V>): void => {
    if (at === undefined) return
    visit(at.left)
    if (keep(at.value, at.key)) kept.push(at)
    visit(at.right)
  }
  visit(map)
  if (kept.length === size(map)) return map
  // The kept entries are in key order: a balanced tree of them, built bottom-up.
  const build = (from: number, to: number): PersistentMap<V> => {
    if (from >= to) return undefined
    const middle = (from + to) >>> 1
    const entry = kept[middle]!
    return node(entry.key, entry.value, build(from, middle), build(middle + 1, to))
  }
  return build(0, kept.length)
}
