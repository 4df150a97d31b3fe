import Testing
import Animations
@testable import AnimLang

/// The name tables written out or searched rather than built on first use
/// (start-up, issue 23): each must say exactly what the derived table said.
struct NameTableTests {
    /// The keyword spellings are the cases' names, in case order.
    @Test func keywordSpellingsAreTheCaseNames() {
        #expect(Keyword.spellings.count == Keyword.allCases.count)
        for word in Keyword.allCases {
            #expect(word.spelling == "\(word)")
        }
    }

    /// `color(named:)` searches the list by halves: it must be strictly sorted.
    @Test func colourListIsSortedAndEveryNameReads() {
        let names = ColorNames.named.map(\.0.description)
        #expect(zip(names, names.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ColorNames.allNames.count == 149)
        for (name, rgb) in ColorNames.named {
            #expect(ColorNames.color(named: name.description) == Color(red: Double(rgb >> 16), green: Double((rgb >> 8) & 0xff),
                                                          blue: Double(rgb & 0xff)))
        }
        #expect(ColorNames.color(named: "transparent") == Color(red: 0, green: 0, blue: 0, alpha: 0))
        for word in ["", "a", "zzz", "circle", "Red", "red ", "aliceblu", "yellowgreenx", "transparen"] {
            #expect(ColorNames.color(named: word) == nil)
        }
        #expect(ColorNames.spelling(of: Color(red: 0, green: 255, blue: 255)) == "aqua")
        #expect(ColorNames.spelling(of: Color(red: 128, green: 128, blue: 128)) == "gray")
    }

    /// Every bare easing name reads, as the dictionary it replaces held them.
    @Test func everyEasingNameReads() throws {
        let names = EasingNames.bareNames.map(\.0.description)
        #expect(zip(names, names.dropFirst()).allSatisfy { $0 < $1 })
        #expect(EasingNames.allNames == names)
        var penner: Set<String> = []
        for (name, bare) in EasingNames.bareNames {
            if case .penner(let curve, let mode) = bare {
                #expect(name.description == "ease-\(mode.rawValue)-\(curve.rawValue)")
                penner.insert(name.description)
            }
        }
        #expect(penner.count == Easing.PennerCurve.allCases.count * Easing.PennerMode.allCases.count)
        #expect(names.count == penner.count + 12)
        for name in EasingNames.allNames {
            #expect(EasingNames.easing(named: name) != nil, "\(name)")
        }
        for (name, easing) in EasingNames.cssKeywords {
            #expect(EasingNames.easing(named: name) == easing)
        }
        #expect(EasingNames.easing(named: "css-ease") == Easing.ease)
        #expect(EasingNames.easing(named: "ease-in-out-back") == Easing.penner(.back, .inOut))
        #expect(EasingNames.easing(named: "ease-in-quad") == Easing.penner(.quad, .in))
        #expect(EasingNames.easing(named: "spring") == EasingNames.spring(adjective: nil))
        #expect(EasingNames.easing(named: "step-start") == (try Easing.steps(1, .jumpStart)))
        for word in ["", "ease-", "ease--quad", "ease-in-", "ease-sideways-quad", "ease-in-quadx", "circle", "Linear", "ease-in-out-"] {
            #expect(EasingNames.easing(named: word) == nil, "\(word)")
        }
    }
}
