import AnimLang
import Animations

/// The plot's words: its title and subtitle, readable times and values, label widths.
extension Plot {
    var title: String {
        source.isEmpty ? binding : "\(binding) — \(source)"
    }

    /// What the plot spans and how to read it; `omittedLabels` event labels found no room.
    func subtitle(omittedLabels: Int = 0) -> String {
        var parts: [String] = []
        if isInfinite {
            parts.append("repeats forever; plotted to \(Self.readableTime(end)) s")
        } else if end != duration {
            parts.append("duration \(Self.readableTime(duration)) s; plotted to \(Self.readableTime(end)) s")
        } else {
            parts.append("duration \(Self.readableTime(duration)) s" + (end.isZero ? " (a single instant)" : ""))
        }
        parts.append(panels.count == 1 ? "1 property" : "\(panels.count) properties")
        if !markers.isEmpty {
            parts.append("events in orange" + (omittedLabels > 0 ? " (\(omittedLabels) unlabelled: no room)" : ""))
        }
        if panels.contains(where: { !$0.boundaries.isEmpty }) { parts.append("dashed lines: segment boundaries") }
        return parts.joined(separator: " · ")
    }

    /// A time as people read it: its decimal when short, else rounded (`≈0.3333`).
    static func readableTime(_ time: Time) -> String {
        if let decimal = time.decimalDescription, decimal.count <= 10 { return decimal }
        return "≈" + readable(time.seconds, span: abs(time.seconds))
    }

    /// A number to about four significant digits of `span` (the range it is
    /// read against): `108.8`, `0.25`, `-40`, `1000.0001`; scientific where
    /// fixed digits would be many (`1.235e-07`, `3.000e+12`).
    static func readable(_ value: Double, span: Double) -> String {
        var out: [UInt8] = []
        guard value.isFinite else {
            out.append(contentsOf: value.description.utf8)
            return String(decoding: out, as: UTF8.self)
        }
        let scale = span > 0 && span.isFinite ? span : abs(value)
        guard value != 0, scale > 0 else { return "0" }
        let decimals = 3 - decimalExponent(scale)
        if decimals <= 9, abs(value) < 1e9 {
            writeFixed(value, decimals: max(0, decimals), into: &out)
            trimZeros(&out)
        } else {
            // As many digits as tell the value apart at the span's scale.
            writeScientific(value, digits: max(3, min(15, decimalExponent(abs(value)) + decimals)), into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ⌊log10 x⌋ for a positive finite `x` (by comparison with powers of ten).
    static func decimalExponent(_ x: Double) -> Int {
        guard x > 0, x.isFinite else { return 0 }
        var exponent = 0
        var scaled = x
        while scaled >= 10 {
            scaled /= 10
            exponent += 1
        }
        while scaled < 1 {
            scaled *= 10
            exponent -= 1
        }
        // Division rounds: check against the power itself.
        if x < power10(exponent) { exponent -= 1 } else if x >= power10(exponent + 1) { exponent += 1 }
        return exponent
    }

    /// `2.500` → `2.5`, `3.000` → `3`.
    static func trimZeros(_ out: inout [UInt8]) {
        guard out.contains(UInt8(ascii: ".")) else { return }
        while out.last == UInt8(ascii: "0") { out.removeLast() }
        if out.last == UInt8(ascii: ".") { out.removeLast() }
        if out == Array("-0".utf8) { out = [UInt8(ascii: "0")] }
    }

    static func monoTextWidth(_ text: String) -> Double {
        Double(text.unicodeScalars.count) * monoWidth
    }

    /// The labels on a panel's left: its greatest and least value (one, for a
    /// constant), and 0 where it lies between them; a colour strip or a
    /// point's band shows its first value as a table does.
    static func valueLabels(_ panel: Panel) -> [(text: String, value: Double?)] {
        switch panel.kind.plotRole {
        case .strip, .label:
            guard let value = panel.samples.first?.value, value.kind == panel.kind else { return [] }
            var out: [UInt8] = []
            value.write(.display, into: &out)
            return [(String(decoding: out, as: UTF8.self), nil)]
        case .curve:
            guard let range = panel.range else { return [] }
            let span = range.upperBound - range.lowerBound
            if span == 0 { return [(readable(range.lowerBound, span: 0), range.lowerBound)] }
            var labels = [(readable(range.upperBound, span: span), Optional(range.upperBound)),
                          (readable(range.lowerBound, span: span), Optional(range.lowerBound))]
            if range.lowerBound < 0, range.upperBound > 0 { labels.append(("0", 0)) }
            return labels
        }
    }
}
