import Testing
@testable import Animations

/// ``IdentityTable`` (the memo of every fold) against the dictionary it
/// replaces: the same answers for every key after every change.
struct IdentityTableTests {
    final class Key {}

    @Test func agreesWithADictionary() {
        let keys = (0..<2_000).map { _ in Key() }
        for capacity in [0, 1, 7, 3_000] {
            var table = IdentityTable<Int?>(capacity: capacity)
            var dictionary: [ObjectIdentifier: Int?] = [:]
            // Inserts (past several growths), replacements and `nil` values, mixed.
            var state: UInt64 = 0x2545_F491_4F6C_DD1D
            for step in 0..<6_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let key = ObjectIdentifier(keys[Int(state >> 33) % keys.count])
                let value: Int? = step % 5 == 0 ? nil : step
                table.set(value, for: key)
                dictionary[key] = .some(value)
                #expect(table[key] == dictionary[key])
            }
            #expect(table.count == dictionary.count)
            for key in keys.map(ObjectIdentifier.init) {
                #expect(table[key] == dictionary[key])
            }
        }
    }

    @Test func mergeKeepsWhatItHas() {
        let keys = (0..<100).map { _ in Key() }
        var left = IdentityTable<Int>(), right = IdentityTable<Int>()
        for (index, key) in keys.enumerated() {
            if index % 2 == 0 { left.set(index, for: ObjectIdentifier(key)) }
            if index % 3 == 0 { right.set(-index, for: ObjectIdentifier(key)) }
        }
        left.merge(right)
        for (index, key) in keys.enumerated() {
            let expected: Int? = index % 2 == 0 ? index : index % 3 == 0 ? -index : nil
            #expect(left[ObjectIdentifier(key)] == expected)
        }
        #expect(left.count == keys.indices.filter { $0 % 2 == 0 || $0 % 3 == 0 }.count)
    }
}
