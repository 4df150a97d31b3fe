import AnimLang
import Animations

// Relative at play time (docs/exports.md §7.3): a `to` or `by` tween with
// nothing before it starts from the property's declared (or neutral) value
// (docs/semantics.md §7.1), and in the browser that value is wherever the element is
// when the module's `play()` starts. Every value of a binding is an affine
// function of that start for a number (lerps, holds and tie means are
// affine), so the export is built twice, from the declared starts and from
// starts moved by one, and each keyframe carries how far it moves
// (``WebExport/Keyframe/relative``). Keyframes interpolate linearly in their
// values under one easing, so when both builds share their keyframes'
// offsets and easings, the keyframes moved to any start draw the binding as
// it plays from that start. A colour or a point has no such slope: a
// keyframe that is the start in both builds follows the element, one that
// is the same in both does not.

/// `export` with the keyframes that follow the element's start marked
/// (``WebExport/Keyframe/relative``), when `outcome`'s binding has relative
/// tweens outside a `played` (which closes them, docs/semantics.md §8.5, as
/// `--after NAME` does). A property whose keyframes the moved build lays out
/// differently (a tie or a warp sampled into other curves) keeps its
/// declared start, unmarked.
func relativeAtPlayTime(_ export: WebExport, model: ExportModel, outcome: Outcome, source: String) -> WebExport {
    guard outcome.term?.hasRelativeTweens == true, let scene = outcome.scene, !export.isCancelled else { return export }
    var moved = model.initial
    for column in model.columns {
        guard let start = model.initial[column.property] ?? neutralValue(of: column.property, kind: column.kind) else { continue }
        moved[column.property] = start.movedByOne
    }
    guard let compiled = try? scene.compile(initial: moved) else { return export }
    let other = repetitionModel(ExportModel(compiled, binding: model.binding, range: model.range, initial: moved, viewOrder: model.views,
                                            declaredViews: model.views, placements: model.placements), outcome: outcome)
    guard let (shifted, _) = try? WebExport.make(other, source: source), shifted.views.count == export.views.count else { return export }
    let views = zip(export.views, shifted.views).map { view, movedView in
        guard view.channels.count == movedView.channels.count else { return view }
        let channels = zip(view.channels, movedView.channels).map { channel, movedChannel in
            channel.following(movedChannel) ?? channel
        }
        return WebExport.View(name: view.name, channels: channels, placement: view.placement)
    }
    var marked = WebExport(binding: export.binding, source: export.source, duration: export.duration, isCancelled: export.isCancelled,
                           views: views, events: export.events, endless: export.endless)
    marked.names = export.names
    return marked
}

extension WebExport.Channel {
    /// The channel with each keyframe's ``WebExport/Keyframe/relative``
    /// read off `moved` (the same channel built from a start moved by
    /// one); `nil` when nothing follows the start or the two builds differ
    /// in anything but their values.
    func following(_ moved: WebExport.Channel) -> WebExport.Channel? {
        guard let declared = relativeStart, moved.property == property,
              moved.animations.count == animations.count else { return nil }
        let movedStart = declared.movedByOne
        var follows = false
        var marked: [WebExport.Animation] = []
        for (animation, other) in zip(animations, moved.animations) {
            guard animation.keyframes.count == other.keyframes.count, animation.delay == other.delay,
                  animation.duration == other.duration, animation.iterations == other.iterations,
                  animation.fillsBoth == other.fillsBoth, animation.isEndless == other.isEndless else { return nil }
            var copy = animation
            for index in animation.keyframes.indices {
                let keyframe = animation.keyframes[index], otherKeyframe = other.keyframes[index]
                guard keyframe.offset == otherKeyframe.offset, keyframe.easing == otherKeyframe.easing,
                      let weight = startWeight(keyframe.value, otherKeyframe.value, start: declared, movedStart: movedStart) else { return nil }
                copy.keyframes[index].relative = weight
                follows = follows || weight != 0
            }
            marked.append(copy)
        }
        guard follows else { return nil }
        return WebExport.Channel(property: property, variable: variable, kind: kind, start: start, animations: marked, extent: extent,
                                 declared: self.declared)
    }
}

/// How much of the start a keyframe's value carries, from its value in the
/// two builds: their difference for numbers (the start moved by one),
/// rounded where it is a whole number but for the builds' rounding; for a
/// colour or a point, 1 where it is the start in both, 0 where it is the
/// same in both; `nil` otherwise.
private func startWeight(_ value: Value, _ moved: Value, start: Value, movedStart: Value) -> Double? {
    switch (value, moved) {
    case (.number(let a), .number(let b)):
        let weight = b - a
        guard weight.isFinite else { return nil }
        let whole = weight.rounded()
        return abs(weight - whole) <= 1e-9 * max(1, abs(a)) ? whole : weight
    case (.color, .color), (.point, .point):
        if value == moved { return 0 }
        return value == start && moved == movedStart ? 1 : nil
    case (.number, _), (.color, _), (.point, _):
        return nil
    }
}

extension Value {
    /// A different value of the same kind, for the second build of
    /// ``relativeAtPlayTime(_:model:outcome:source:)``: a number plus one,
    /// a point moved by (1, 1), a colour with other channels.
    var movedByOne: Value {
        switch self {
        case .number(let x): return .number(x + 1)
        case .point(let p): return .point(Point(x: p.x + 1, y: p.y + 1))
        case .color(let c):
            func other(_ channel: Double) -> Double { channel >= 128 ? channel - 100 : channel + 100 }
            return .color(Color(red: other(c.red), green: other(c.green), blue: other(c.blue), alpha: c.alpha))
        }
    }
}
