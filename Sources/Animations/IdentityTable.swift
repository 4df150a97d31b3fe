/// A table from objects, by identity, to values: what
/// ``Term/bottomUp(memo:operands:_:)`` (so every fold and evaluation) keeps
/// its results in. It does what `[ObjectIdentifier: Value]` does for those
/// walks (find, insert, replace; never remove), without the Hashable
/// machinery: a dictionary of `ObjectIdentifier` makes the runtime look
/// up that type's Hashable conformance, a scan of every conformance the
/// process has loaded (some 130,000 instructions of start-up), and hashes
/// each key with SipHash; here a key is hashed by one multiplication.
///
/// Open addressing with linear probing: `slots` holds, for each slot, the
/// key's address (0: empty: no object lives at address 0) and, next to
/// it, the index of its value in `values` (which grows in insertion order).
/// At most three quarters of the slots are full, so every probe ends at an empty slot.
public struct IdentityTable<Value> {
    /// Pairs (address, index into `values`); `2 * capacity` integers, a power of two of slots.
    private var slots: [Int]
    private var values: [Value] = []
    /// log2 of the number of slots.
    private var shift: Int

    /// A table that takes `capacity` entries before it grows.
    public init(capacity: Int = 0) {
        var bits = 3
        while (3 << bits) / 4 < capacity, bits < 40 { bits += 1 }
        shift = bits
        slots = [Int](repeating: 0, count: 2 << bits)
        values.reserveCapacity(capacity)
    }

    /// How many entries.
    public var count: Int { values.count }

    /// The value of `key`, if it has one.
    public subscript(key: ObjectIdentifier) -> Value? {
        value(at: Int(bitPattern: key))
    }

    /// Gives `key` the value `value` (replacing the one it had).
    public mutating func set(_ value: Value, for key: ObjectIdentifier) {
        set(value, at: Int(bitPattern: key))
    }

    /// Every entry of `other` whose key this table lacks.
    public mutating func merge(_ other: IdentityTable) {
        for index in 0..<(1 << other.shift) where other.slots[2 * index] != 0 {
            let address = other.slots[2 * index]
            if value(at: address) == nil { set(other.values[other.slots[2 * index + 1]], at: address) }
        }
    }

    /// The slot holding the key at `address`, or the empty one where it would go.
    private func slot(of address: Int) -> Int {
        // Fibonacci hashing: the top `shift` bits of the product.
        let mask = (1 << shift) - 1
        var index = Int(truncatingIfNeeded: (UInt(bitPattern: address) &* 0x9E37_79B9_7F4A_7C15) >> UInt(64 - shift))
        // Ends: at most three quarters of the slots are full.
        while true {
            let found = slots[2 * index]
            if found == address || found == 0 { return index }
            index = (index + 1) & mask
        }
    }

    private func value(at address: Int) -> Value? {
        let index = slot(of: address)
        return slots[2 * index] == 0 ? nil : values[slots[2 * index + 1]]
    }

    private mutating func set(_ value: Value, at address: Int) {
        var index = slot(of: address)
        if slots[2 * index] != 0 {
            values[slots[2 * index + 1]] = value
            return
        }
        if 4 * (values.count + 1) > 3 << shift {
            grow()
            index = slot(of: address)
        }
        slots[2 * index] = address
        slots[2 * index + 1] = values.count
        values.append(value)
    }

    /// Twice the slots, every key placed again (the values stay where they are).
    private mutating func grow() {
        let old = slots
        shift += 1
        slots = [Int](repeating: 0, count: 2 << shift)
        for index in 0..<(old.count / 2) where old[2 * index] != 0 {
            let target = slot(of: old[2 * index])
            slots[2 * target] = old[2 * index]
            slots[2 * target + 1] = old[2 * index + 1]
        }
    }
}
