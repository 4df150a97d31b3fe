import Testing
@testable import Animations

@Test func langSmoke() {
    #expect(Time(decimal: "0.1")!.adding(Time(decimal: "0.2")!) == Time(decimal: "0.3"))
}
