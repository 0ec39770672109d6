import Testing
import TextMatching

@Suite struct NearestNameTests {
    @Test("the edit distance counts insertions, deletions, replacements and swapped neighbours")
    func editDistance() {
        #expect(NearestName.editDistance("quantiy", "quantity") == 1)
        #expect(NearestName.editDistance("kitten", "sitting") == 3)
        #expect(NearestName.editDistance("", "abc") == 3)
        #expect(NearestName.editDistance("same", "same") == 0)
        #expect(NearestName.editDistance("nwo", "now") == 1)
        #expect(NearestName.editDistance("ca", "abc") == 3)
    }

    @Test("a typo finds the name it meant; a different word finds none")
    func nearest() {
        let fields = ["now", "storefront", "locale", "environment", "customer"]
        #expect(NearestName.nearest(to: "custommer", in: fields) == "customer")
        #expect(NearestName.nearest(to: "Enviroment", in: fields) == "environment")
        #expect(NearestName.nearest(to: "nwo", in: fields) == "now")
        #expect(NearestName.nearest(to: "colour", in: fields) == nil)
        #expect(NearestName.nearest(to: String(repeating: "x", count: 100_000), in: fields) == nil)
    }

    @Test("with prefixes allowed, a beginning of three characters or more suggests the shortest name it begins")
    func prefixes() {
        let options = ["coverage", "cover-report", "json", "junit"]
        #expect(NearestName.nearest(to: "cov", in: options, allowingPrefixes: true) == "coverage")
        #expect(NearestName.nearest(to: "cov", in: options) == nil)
        #expect(NearestName.nearest(to: "ju", in: options, allowingPrefixes: true) == nil, "two characters begin too much")
        #expect(NearestName.nearest(to: "jsno", in: options, allowingPrefixes: true) == "json", "a typo still wins")
    }
}
