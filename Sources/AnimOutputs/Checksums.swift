/// The two checksums a PNG carries: CRC-32 over each chunk (ISO 3309, the
/// reflected polynomial 0xEDB88320) and Adler-32 at the end of its zlib
/// stream (RFC 1950). Both are updated a slice at a time, so a chunk or a
/// stream is checked as it is written.
enum Checksums {
    /// One table for bytewise CRC-32, made once.
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 of `bytes` continued from `crc` (0 for a fresh one).
    static func crc32<Bytes: Sequence>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
        var value = ~crc
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        }
        return ~value
    }

    /// Adler-32 of `bytes` continued from `adler` (1 for a fresh one). The
    /// sums are reduced every 5552 bytes, the most that cannot overflow 32 bits.
    static func adler32(_ bytes: [UInt8], continuing adler: UInt32 = 1) -> UInt32 {
        var low = adler & 0xFFFF
        var high = adler >> 16
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + 5552)
            while index < end {
                low += UInt32(bytes[index])
                high += low
                index += 1
            }
            low %= 65521
            high %= 65521
        }
        return high << 16 | low
    }
}
