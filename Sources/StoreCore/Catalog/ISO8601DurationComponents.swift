/// The components of an ISO 8601 duration such as `P1M`, `P3D`, `PT2H` or `P1DT12H`, as written.
///
/// Grammar accepted (ISO 8601, whole numbers only, designators in order, each at most once):
/// `P[nY][nM][nW][nD][T[nH][nM][nS]]`, with at least one component, and at least one time component
/// after a `T`. Signs, fractions, lowercase letters and the alternative `PYYYY-MM-DD` form are rejected.
struct ISO8601DurationComponents {
    /// A designator of an ISO 8601 duration, in the order the grammar requires.
    enum Designator: Int, CaseIterable {
        case years, months, weeks, days, hours, minutes, seconds

        /// Whether the designator belongs after the `T` separator.
        var isTime: Bool { rawValue >= Designator.hours.rawValue }

        /// The letter that ends the component in the written form.
        var letter: UInt8 {
            switch self {
            case .years: UInt8(ascii: "Y")
            case .months, .minutes: UInt8(ascii: "M")
            case .weeks: UInt8(ascii: "W")
            case .days: UInt8(ascii: "D")
            case .hours: UInt8(ascii: "H")
            case .seconds: UInt8(ascii: "S")
            }
        }
    }

    /// One written component: a designator and its whole, non-negative value.
    struct Component {
        /// Which unit the value counts.
        let designator: Designator
        /// How many of the unit.
        let value: Int
    }

    /// The components present in the text, in written order.
    let components: [Component]

    /// Parses `text`, or returns `nil` when it is not an ISO 8601 duration of the accepted form.
    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        var index = 1
        var parsed: [Component] = []
        var inTimePart = false
        var timeComponentCount = 0
        var earliestAllowed = Designator.years.rawValue
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTimePart else { return nil }
                inTimePart = true
                earliestAllowed = Designator.hours.rawValue
                index += 1
                continue
            }
            var value = 0
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                let (shifted, multiplicationOverflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, additionOverflowed) = shifted.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
                guard !multiplicationOverflowed, !additionOverflowed else { return nil }
                value = sum
                index += 1
            }
            guard index > digitsStart, index < bytes.count else { return nil }
            let letter = bytes[index]
            index += 1
            guard let designator = Designator.allCases.first(where: {
                $0.rawValue >= earliestAllowed && $0.isTime == inTimePart && $0.letter == letter
            }) else { return nil }
            parsed.append(Component(designator: designator, value: value))
            earliestAllowed = designator.rawValue + 1
            if inTimePart { timeComponentCount += 1 }
        }
        guard !parsed.isEmpty, !inTimePart || timeComponentCount > 0 else { return nil }
        components = parsed
    }
}
