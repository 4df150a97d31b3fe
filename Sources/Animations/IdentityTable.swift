/// A table from objects, by identity, to values: what
/// ``Term/bottomUp(memo:operands:_:)`` (so every fold and evaluation) keeps
/// its results in. It does what `[ObjectIdentifier: Value]` does for those
/// walks (find, insert, replace; never remove), without the Hashable
/// machinery: a dictionary of `ObjectIdentifier` makes the runtime look
/// up that type's Hashable conformance, a scan of every conformance the
/// process has loaded (on every start-up), and hashes
/// each key with SipHash; here a key is hashed by one multiplication.
///
/// Open addressing with linear probing over one word per slot: 0 when the
/// slot is empty (an entry's word is never 0), else the entry's number
/// plus one in the low 32 bits and 32 bits of its key's hash (the tag) in
/// the high ones. The keys (their addresses) and values are in arrays of
/// their own, in insertion order; a probe reads a key only where the tag
/// matches. At most three quarters of the slots are full, so every probe
/// ends at an empty slot.
///
/// (One word a slot, not the key and the number in two: a fresh key's
/// probe lands anywhere in the slots, and a table with one entry per
/// `let` of a long script is then half the size, read from the
/// cache rather than from memory; a key found again is mostly a recent one,
/// whose key and value were just written.)
public struct IdentityTable<Value> {
    /// A power of two of slot words (see above).
    private var slots: [UInt64]
    /// Each entry's key's address, by entry number.
    private var keys: [Int] = []
    /// Each entry's value, by entry number.
    private var values: [Value] = []
    /// log2 of the number of slots.
    private var shift: Int

    /// A table that takes `capacity` entries before it grows.
    public init(capacity: Int = 0) {
        var bits = 3
        while (3 << bits) / 4 < capacity, bits < 40 { bits += 1 }
        shift = bits
        slots = [UInt64](repeating: 0, count: 1 << bits)
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// How many entries.
    public var count: Int { values.count }

    /// The value of `key`, if it has one.
    public subscript(key: ObjectIdentifier) -> Value? {
        let (_, entry) = find(Int(bitPattern: key))
        guard let entry else { return nil }
        return values[entry]
    }

    /// Gives `key` the value `value` (replacing the one it had).
    public mutating func set(_ value: Value, for key: ObjectIdentifier) {
        set(value, at: Int(bitPattern: key))
    }

    /// Every entry of `other` whose key this table lacks.
    public mutating func merge(_ other: IdentityTable) {
        for entry in other.keys.indices where find(other.keys[entry]).entry == nil {
            set(other.values[entry], at: other.keys[entry])
        }
    }

    /// The key's hash: Fibonacci hashing, one multiplication. The top
    /// `shift` bits pick the first slot; bits 16–47 are the tag.
    @inline(__always)
    private static func hash(_ address: Int) -> UInt64 {
        UInt64(bitPattern: Int64(address)) &* 0x9E37_79B9_7F4A_7C15
    }

    /// A slot word's tag part for `hash`.
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt64 {
        (hash >> 16) << 32
    }

    /// The slot of the key at `address` and its entry, or the empty slot where it would go and `nil`.
    private func find(_ address: Int) -> (slot: Int, entry: Int?) {
        let hash = IdentityTable.hash(address)
        let tag = IdentityTable.tag(hash)
        let mask = (1 << shift) - 1
        var index = Int(truncatingIfNeeded: hash >> UInt64(64 - shift))
        // Ends: at most three quarters of the slots are full.
        while true {
            let word = slots[index]
            if word == 0 { return (index, nil) }
            if word & 0xFFFF_FFFF_0000_0000 == tag {
                // (An entry's word holds its number plus one, below `keys.count`.)
                let entry = Int(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
                if keys[entry] == address { return (index, entry) }
            }
            index = (index + 1) & mask
        }
    }

    private mutating func set(_ value: Value, at address: Int) {
        var (index, entry) = find(address)
        if let entry {
            values[entry] = value
            return
        }
        if 4 * (values.count + 1) > 3 << shift {
            grow()
            index = find(address).slot
        }
        // An entry's number plus one fits in the word's low 32 bits: each key is a
        // live object (at least 16 bytes), so 2^32 of them do not fit in memory.
        precondition(values.count < Int(UInt32.max), "an identity table of 2^32 entries")
        slots[index] = IdentityTable.tag(IdentityTable.hash(address)) | UInt64(values.count + 1)
        keys.append(address)
        values.append(value)
    }

    /// Twice the slots, every entry placed again (the keys and values stay where they are).
    private mutating func grow() {
        shift += 1
        slots = [UInt64](repeating: 0, count: 1 << shift)
        let mask = (1 << shift) - 1
        for entry in keys.indices {
            let hash = IdentityTable.hash(keys[entry])
            var index = Int(truncatingIfNeeded: hash >> UInt64(64 - shift))
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = IdentityTable.tag(hash) | UInt64(entry + 1)
        }
    }
}
