import Foundation

/// A Lottie player for tests, in double precision: what a keyframed
/// property of an exported file shows at a frame, by the rules lottie-web
/// and ThorVG follow (a keyframe holds its value from its frame on; several
/// keyframes at one frame show the last; `h: 1` holds until the next
/// keyframe; otherwise `o`/`i` are a cubic-bezier from this value to the
/// next). The conformance script (`checks/lottie.sh`) plays the same files
/// in the real players; this one keeps `swift test` hermetic.
struct LottieReferencePlayer {
    let document: [String: Any]

    init?(json: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return nil }
        document = object
    }

    var layers: [[String: Any]] { document["layers"] as? [[String: Any]] ?? [] }

    /// The views the layers draw, in order: a layer's name, or for a
    /// precomposition (a view drawn through a time remap) its asset's layer's.
    var views: [String] {
        layers.flatMap { layer in (drawn(layer)?.layers ?? [layer]).compactMap { $0["nm"] as? String } }
    }

    /// A precomposition layer's asset layers and its time remap.
    private func drawn(_ layer: [String: Any]) -> (layers: [[String: Any]], remap: Any?)? {
        guard layer["ty"] as? Int == 0 || layer["ty"] as? Double == 0, let id = layer["refId"] as? String,
              let asset = (document["assets"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }),
              let inner = asset["layers"] as? [[String: Any]] else { return nil }
        return (inner, layer["tm"])
    }

    /// The shape layer of a view, and the frame it shows at a frame of the
    /// file: the same frame, or through a precomposition's `tm` (seconds).
    func layer(named name: String, at frame: Double = 0) -> (layer: [String: Any], frame: Double)? {
        let rate = document["fr"] as? Double ?? 60
        for layer in layers {
            if let (inner, remap) = drawn(layer), let shape = inner.first(where: { $0["nm"] as? String == name }) {
                guard let seconds = Self.value(of: remap, at: frame)?.first else { return nil }
                return (shape, seconds * rate)
            }
            if layer["nm"] as? String == name { return (layer, frame) }
        }
        return nil
    }

    /// Whether lottie-web hides a view's layer at a frame of the file: a
    /// layer shows from its `ip` up to its `op` (less `st`) on the clock it
    /// is drawn at, which inside a precomposition is the remapped one.
    func hidden(_ name: String, at fileFrame: Double) -> Bool {
        guard let (layer, frame) = layer(named: name, at: fileFrame) else { return true }
        let start = (layer["st"] as? NSNumber)?.doubleValue ?? 0
        guard let first = (layer["ip"] as? NSNumber)?.doubleValue, let end = (layer["op"] as? NSNumber)?.doubleValue else { return true }
        return !(first - start <= frame && frame < end - start)
    }

    /// The value of an animatable property (`{"a": …, "k": …}`) at `frame`.
    static func value(of property: Any?, at frame: Double) -> [Double]? {
        guard let property = property as? [String: Any] else { return nil }
        if property["a"] as? Int == 0 || property["a"] as? Double == 0 {
            if let number = property["k"] as? Double { return [number] }
            return (property["k"] as? [Any])?.compactMap { $0 as? Double }
        }
        guard let keys = property["k"] as? [[String: Any]], let first = keys.first else { return nil }
        func start(_ key: [String: Any]) -> [Double] { (key["s"] as? [Any])?.compactMap { $0 as? Double } ?? [] }
        func time(_ key: [String: Any]) -> Double { key["t"] as? Double ?? 0 }
        if frame < time(first) { return start(first) }
        // The last keyframe at or before the frame.
        var index = 0
        while index + 1 < keys.count, time(keys[index + 1]) <= frame { index += 1 }
        let key = keys[index]
        guard index + 1 < keys.count else { return start(key) }
        if (key["h"] as? Double ?? 0) == 1 { return start(key) }
        let next = keys[index + 1]
        let q = (frame - time(key)) / (time(next) - time(key))
        guard let out = key["o"] as? [String: Any], let into = key["i"] as? [String: Any],
              let x1 = handle(out["x"]), let y1 = handle(out["y"]),
              let x2 = handle(into["x"]), let y2 = handle(into["y"]) else { return nil }
        let y = bezier(x1, y1, x2, y2, at: q)
        return zip(start(key), start(next)).map { a, b in a + (b - a) * y }
    }

    /// A handle coordinate: one number for every dimension, or the first of one per dimension.
    static func handle(_ value: Any?) -> Double? {
        (value as? Double) ?? (value as? [Double])?.first
    }

    /// The ordinate of `cubic-bezier(x1, y1, x2, y2)` at abscissa `x` (bisection on the parameter).
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func coordinate(_ a: Double, _ b: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
        }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if coordinate(x1, x2, middle) < x { low = middle } else { high = middle }
        }
        return coordinate(y1, y2, (low + high) / 2)
    }

    /// What a layer shows at `frame`, in animc's terms (position is the home plus x, y).
    struct Shown {
        var x: Double
        var y: Double
        var rotation: Double
        /// Per axis (`s` is two numbers): `scale` times `scale-x` and `scale-y`.
        var scale: [Double]
        /// The anchor `a`: the origin's offset from the shape's centre.
        var anchor: [Double]
        var opacity: Double
        var size: [Double]
        var color: [Double]
        var alpha: Double
    }

    func shown(_ name: String, at fileFrame: Double) -> Shown? {
        guard let (layer, frame) = layer(named: name, at: fileFrame), let ks = layer["ks"] as? [String: Any],
              let position = ks["p"] as? [String: Any],
              let x = Self.value(of: position["x"], at: frame)?.first, let y = Self.value(of: position["y"], at: frame)?.first,
              let rotation = Self.value(of: ks["r"], at: frame)?.first, let scale = Self.value(of: ks["s"], at: frame), scale.count == 2,
              let anchor = Self.value(of: ks["a"], at: frame), anchor.count == 2,
              let opacity = Self.value(of: ks["o"], at: frame)?.first,
              let group = (layer["shapes"] as? [[String: Any]])?.first?["it"] as? [[String: Any]], group.count == 3,
              let size = Self.value(of: group[0]["s"], at: frame), let color = Self.value(of: group[1]["c"], at: frame),
              let alpha = Self.value(of: group[1]["o"], at: frame)?.first else { return nil }
        return Shown(x: x, y: y, rotation: rotation, scale: scale.map { $0 / 100 }, anchor: anchor, opacity: opacity / 100, size: size,
                     color: color.prefix(3).map { $0 * 255 }, alpha: alpha / 100)
    }
}

/// The frames the checks compare at: every frame k of the file, and k + 1/5
/// and k + 1/2 below the last one, as exact fractions of a frame.
func lottieCheckFrames(op: Int, loops: Bool = false) -> [(numerator: Int64, denominator: Int64)] {
    var frames: [(Int64, Int64)] = []
    for k in 0..<Int64(op) {
        frames.append((k, 1))
        // A file that loops plays on from its last frame to op (the next round's frame 0).
        if k + 1 < op || loops {
            frames.append((5 * k + 1, 5))
            frames.append((2 * k + 1, 2))
        }
    }
    return frames.sorted { Double($0.0) / Double($0.1) < Double($1.0) / Double($1.1) }
}
