/// The talk's animation value: a ``Scene`` (what changes when) together with
/// a way to read a `Value` off it at any moment.
///
/// ```swift
/// final class View { var radius = 0.0; var rotation = 0.0; var alpha = 0.0 }
/// let circle = View(), square = View(), container = View()
/// let left = linear(from: 100, to: 10, in: 2.0).time(easeInOut).bind(circle, with: \.radius)
/// let right = linear(from: 0, to: 2 * Double.pi, in: 2.0).time(easeOut(1.5)).bind(square, with: \.rotation)
/// let fadeIn = linear(from: 0, to: 1, in: 1.0).time(easeInOut).bind(container, with: \.alpha)
/// let final = fadeIn * (left + right)      // final.duration == 3.0
/// _ = final.value(0.5)                     // circle.radius ≈ 94.1528, square.rotation ≈ 2.2021
/// ```
///
/// `*` is sequence and `+` is parallel; with `zero` (``cancelled``) and `one`
/// (``trivial``) they form a semiring (see ``Semiring`` for the laws, and
/// ``Scene`` for what each operation does to time).
///
/// Unbound animations (`linear(from:to:in:)`, and what `map`, `+` and `*`
/// build from them) all animate one anonymous property, ``Property/value``,
/// so `a * b` plays `b` after `a` and `a + b` follows the sampling rule
/// (latest start wins, ties average). ``bind(_:with:)`` moves an animation onto
/// a property of its own and writes that property whenever the animation is
/// read, by ``value(_:)``, for the state the sampling rule gives at that moment.
///
/// The talk-style operations here state their preconditions (a non-negative
/// duration, a non-negative count, a monotone easing on a composite, no exact
/// time overflow); ``Scene`` offers the same operations as throwing functions.
/// Reads are closures nested as deeply as the expression that built the
/// animation; for programmatically generated choreography of tens of
/// thousands of levels, build a ``Scene`` (which has no depth limit) and
/// sample its ``CompiledScene``.
public struct Animation<Value> {
    /// What changes when.
    public let scene: Scene
    /// Reads a value off the state of the scene at one moment.
    let read: (Frame) -> Value?
    private let cache: CompiledCache

    /// An animation of `scene`, read by `read`.
    public init(scene: Scene, read: @escaping (Frame) -> Value?) {
        self.scene = scene
        self.read = read
        cache = CompiledCache(scene)
    }

    /// The duration in seconds; −∞ when cancelled (the max-plus reading).
    public var duration: Double {
        scene.duration?.seconds ?? -Double.infinity
    }

    /// The value at `progress` ∈ [0, 1] of the duration (clamped), running
    /// every bound write and `do` effect for that moment. `nil` when cancelled
    /// or trivial (as in the talk), or when nothing can be read.
    public func value(_ progress: Double) -> Value? {
        guard let duration = scene.duration, !(duration.isZero && scene.hasNoSegments),
              let compiled = cache.compiled else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        let t: Instant = p == 0 ? Instant(.zero) : p == 1 ? Instant(duration) : Instant(approximately: p * duration.seconds)
        return read(Frame(scene: compiled, time: t))
    }

    /// The state of every property at `progress` ∈ [0, 1].
    public func frame(_ progress: Double) -> Frame? {
        guard let duration = scene.duration, let compiled = cache.compiled else { return nil }
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        return Frame(scene: compiled, time: p == 1 ? Instant(duration) : Instant(approximately: p * duration.seconds))
    }

    // MARK: Semiring

    /// The cancelled animation.
    public static var cancelled: Animation { Animation(scene: .zero) { _ in nil } }
    /// The trivial animation: no time, nothing happens.
    public static var trivial: Animation { Animation(scene: .one) { _ in nil } }

    // MARK: Modifiers

    /// Eases the animation (see ``Scene/eased(_:)``). Precondition: on a
    /// composite, `easing` is monotone.
    public func time(_ easing: Easing) -> Animation {
        Animation(scene: must { () throws(AnimationError) in try scene.eased(easing) }, read: read)
    }

    /// Plays backwards.
    public var reversed: Animation {
        Animation(scene: scene.reversed, read: read)
    }

    /// `x * x.reversed`.
    public var looped: Animation {
        Animation(scene: must { () throws(AnimationError) in try scene.looped() }, read: read)
    }

    /// `count` copies in sequence; precondition: `count ≥ 0`.
    public func repeating(count: Int) -> Animation {
        Animation(scene: must { () throws(AnimationError) in try scene.repeated(count) }, read: read)
    }

    /// Starts `delay` seconds later; precondition: `delay ≥ 0` and finite.
    public func delayed(by delay: Double) -> Animation {
        Animation(scene: must { () throws(AnimationError) in try scene.delayed(by: try seconds(delay)) }, read: read)
    }

    /// Retimed to last `duration` seconds; precondition: `duration ≥ 0`, finite,
    /// and zero when this animation lasts zero.
    public func retimed(to duration: Double) -> Animation {
        Animation(scene: must { () throws(AnimationError) in try scene.retimed(to: try seconds(duration)) }, read: read)
    }

    /// Reads `transform(value)` instead of the value.
    public func map<B>(_ transform: @escaping (Value) -> B) -> Animation<B> {
        let read = self.read
        return Animation<B>(scene: scene) { frame in read(frame).map(transform) }
    }

    /// Runs `effect` with the value every time the animation is read.
    public func `do`(_ effect: @escaping (Value) -> Void) -> Animation {
        let read = self.read
        return Animation(scene: scene) { frame in
            let value = read(frame)
            if let value { effect(value) }
            return value
        }
    }
}

/// Both animations in parallel, read together.
public func zip<A, B>(_ first: Animation<A>, _ second: Animation<B>) -> Animation<(A, B)> {
    let readFirst = first.read, readSecond = second.read
    return Animation(scene: first.scene.alongside(second.scene)) { frame in
        guard let a = readFirst(frame), let b = readSecond(frame) else { return nil }
        return (a, b)
    }
}

/// Values that parallel and sequential reads can combine (the talk's
/// `CommutativeSemigroup`): ``blend(_:)`` must not depend on the order of its
/// input and must return `x` for `[x, x]`.
public protocol Blendable {
    static func blend(_ values: [Self]) -> Self
}

extension Double: Blendable {
    /// The mean of the distinct values, summed in ascending order (the
    /// sampling rule's tie-break, so `+` on reads matches `||` on scenes).
    public static func blend(_ values: [Double]) -> Double {
        guard var result = values.first.map(DistinctValues.init) else { return 0 }
        for value in values.dropFirst() { result.insert(value) }
        return result.mean
    }
}

extension Animation: Semiring where Value: Blendable {
    public static var zero: Animation { cancelled }
    public static var one: Animation { trivial }

    /// Sequence: `rhs` starts when `lhs` ends. Duration `Dx + Dy`.
    /// Laws: associative, identity `one`, annihilator `zero` on both sides.
    /// Precondition: the total duration fits exact time.
    public static func * (lhs: Animation, rhs: Animation) -> Animation {
        Animation(scene: must { () throws(AnimationError) in try lhs.scene.then(rhs.scene) }, read: combine(lhs.read, rhs.read))
    }

    /// Parallel: both start together. Duration `max(Dx, Dy)`.
    /// Laws: associative, commutative, idempotent, identity `zero`.
    public static func + (lhs: Animation, rhs: Animation) -> Animation {
        Animation(scene: lhs.scene.alongside(rhs.scene), read: combine(lhs.read, rhs.read))
    }

    private static func combine(_ lhs: @escaping (Frame) -> Value?, _ rhs: @escaping (Frame) -> Value?) -> (Frame) -> Value? {
        { frame in
            switch (lhs(frame), rhs(frame)) {
            case (nil, nil): return nil
            case (let value?, nil), (nil, let value?): return value
            case (let a?, let b?): return Value.blend([a, b])
            }
        }
    }
}

extension Animation where Value == Double {
    /// A linear tween of the anonymous property from `from` to `to` over
    /// `duration` seconds. Throws for a negative or non-finite duration or value.
    public static func linear(from: Double, to: Double, in duration: Double) throws(AnimationError) -> Animation<Double> {
        let scene = try Scene.tween(.value, from: from, to: to, duration: try seconds(duration))
        return Animation(scene: scene) { frame in frame[.value] }
    }

    /// Moves the animation onto a property of its own (`ClassName#id.keyPath`)
    /// and writes `object[keyPath: keyPath]` with the property's state every
    /// time the animation is read.
    public func bind<Root: AnyObject>(_ object: Root, with keyPath: ReferenceWritableKeyPath<Root, Double>) -> Animation<Double> {
        let property = Property(view: "\(Root.self)#\(UInt(bitPattern: ObjectIdentifier(object).hashValue))",
                                name: "\(keyPath)")
        return Animation(scene: scene.renamingProperty(.value, to: property)) { frame in
            guard let value = frame[property] else { return nil }
            object[keyPath: keyPath] = value
            return value
        }
    }
}

/// The talk's `linear(from:to:in:)`: precondition: `duration ≥ 0` and every number finite
/// (``Animation/linear(from:to:in:)`` throws instead).
public func linear(from: Double, to: Double, in duration: Double) -> Animation<Double> {
    must { () throws(AnimationError) in try Animation.linear(from: from, to: to, in: duration) }
}

extension Property {
    /// The anonymous property that unbound Swift animations animate.
    public static let value = Property(view: "_", name: "value")
}

/// The state of every property of a compiled scene at one moment, computed on demand.
public struct Frame {
    let scene: CompiledScene
    /// The moment, in seconds from the start.
    public let time: Instant

    /// The state of `property` by the sampling rule, or `nil` if nothing animates it.
    public subscript(property: Property) -> Double? {
        scene.value(of: property, at: time)
    }
}

extension CompiledScene {
    func value(of property: Property, at time: Instant) -> Double? {
        guard let track = track(for: property) else { return nil }
        var resolution = Resolution()
        track.resolve(at: time, into: &resolution)
        return resolution.value(initial: nil)
    }
}

/// Compiles a scene once, on first use.
private final class CompiledCache {
    private let scene: Scene
    private var done = false
    private var value: CompiledScene?

    init(_ scene: Scene) {
        self.scene = scene
    }

    var compiled: CompiledScene? {
        if !done {
            value = try? scene.compile()
            done = true
        }
        return value
    }
}

/// Exact seconds for an API argument in `Double` seconds.
func seconds(_ value: Double) throws(AnimationError) -> Time {
    guard value.isFinite else { throw .notFinite("duration \(value)") }
    guard value >= 0 else { throw .negativeDuration(formatNumber(value)) }
    guard let time = Time(seconds: value) else { throw .overflow("duration \(value)") }
    return time
}

/// Runs a throwing construction whose failure is a documented precondition
/// violation of the talk-style API.
func must<T>(_ body: () throws(AnimationError) -> T) -> T {
    do {
        return try body()
    } catch {
        preconditionFailure("animation precondition failed: \(error)")
    }
}
