/// A lookup in a table of names written out in the source, sorted by their
/// UTF-8 bytes (each table's test checks the order): a binary search on the
/// bytes, with no dictionary built on first use (which every start-up paid)
/// and no `String` comparison (a `<` between two Strings costs about as much
/// as hashing one).
func lookUp<Value>(_ name: String, in table: [(StaticString, Value)]) -> Value? {
    var name = name
    return name.withUTF8 { bytes -> Value? in
        var low = 0, high = table.count
        while low < high {
            let middle = (low + high) / 2   // low ≤ middle < high ≤ table.count
            let order = compareBytes(bytes, table[middle].0)
            if order == 0 { return table[middle].1 }
            if order < 0 { high = middle } else { low = middle + 1 }
        }
        return nil
    }
}

/// Negative, zero or positive as `bytes` sorts before, with or after `word`, byte by byte.
func compareBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Int {
    let count = word.utf8CodeUnitCount
    let wordBytes = UnsafeBufferPointer(start: word.utf8Start, count: count)
    let shorter = min(bytes.count, count)
    var index = 0
    while index < shorter {   // index < both counts
        if bytes[index] != wordBytes[index] { return Int(bytes[index]) - Int(wordBytes[index]) }
        index += 1
    }
    return bytes.count - count
}
