import PagehostCore
import Testing

/// `JSONValue.serialized`: compact text that `JSONParser` (and JavaScript) read back unchanged.
@Suite("JSON writing")
struct JSONWritingTests {
    @Test("integers are written without a fraction", arguments: [
        (0.0, "0"), (1, "1"), (-42, "-42"), (1_000_000_000_000_000, "1000000000000000"), (-0.0, "0"), (255, "255"),
    ])
    func integers(number: Double, text: String) {
        #expect(JSONValue.number(number).serialized == text)
    }

    @Test("fractions keep their digits", arguments: [(1.5, "1.5"), (-0.25, "-0.25"), (0.1, "0.1")])
    func fractions(number: Double, text: String) {
        #expect(JSONValue.number(number).serialized == text)
    }

    @Test("numbers JSON cannot carry become null")
    func nonFinite() {
        #expect(JSONValue.number(.infinity).serialized == "null")
        #expect(JSONValue.number(-.infinity).serialized == "null")
        #expect(JSONValue.number(.nan).serialized == "null")
    }

    @Test("objects and arrays are compact and keep member order")
    func compact() {
        let value: JSONValue = .object([("b", 1), ("a", [true, nil, "x", .object([])]), ("c", .array([]))])
        #expect(value.serialized == #"{"b":1,"a":[true,null,"x",{}],"c":[]}"#)
    }

    @Test("quotes, backslashes and control characters are escaped", arguments: [
        ("say \"hi\"", #""say \"hi\"""#),
        ("C:\\dir", #""C:\\dir""#),
        ("a\nb\rc\td", #""a\nb\rc\td""#),
        ("\u{00}\u{01}\u{08}\u{0C}\u{1F}", #""\u0000\u0001\u0008\u000c\u001f""#),
        ("del\u{7F} / slash", "\"del\u{7F} / slash\""),
        ("é😀", "\"é😀\""),
    ])
    func stringEscapes(string: String, text: String) {
        #expect(JSONValue.string(string).serialized == text)
    }

    @Test("U+2028 and U+2029 are escaped, so the text is also valid JavaScript source")
    func lineSeparators() {
        let text = JSONValue.string("a\u{2028}b\u{2029}c").serialized
        #expect(text == #""a\u2028b\u2029c""#)
        #expect(!text.unicodeScalars.contains("\u{2028}"))
        #expect(!text.unicodeScalars.contains("\u{2029}"))
    }

    @Test("object member names are escaped like strings")
    func memberNames() {
        #expect(JSONValue.object([("a\"\n", .null)]).serialized == #"{"a\"\n":null}"#)
    }

    @Test("a value written and parsed back is the same value")
    func roundTrip() throws {
        let tricky = "q\" b\\ \u{00}\u{1F}\u{7F} \u{2028}\u{2029} 😀 日本 \r\n\t /"
        let value: JSONValue = .object([
            ("string", .string(tricky)),
            (tricky, .array([.number(0.1), .number(-2.5e-8), .number(1e300), .number(123_456_789_012), .number(-7)])),
            ("nested", .object([("empty", .object([])), ("list", [nil, false, true, ""])])),
        ])
        let text = value.serialized
        #expect(try JSONParser.parse(text) == value)
        // Writing is stable: the parsed value writes the same text again.
        #expect(try JSONParser.parse(text).serialized == text)
    }

    @Test("every character below U+00A0 survives a round trip")
    func roundTripEveryLowScalar() throws {
        let all = String(String.UnicodeScalarView((0..<0xA0).compactMap(Unicode.Scalar.init)))
        #expect(try JSONParser.parse(JSONValue.string(all).serialized) == .string(all))
    }

    @Test("text parsed and written again reads the same")
    func textRoundTrip() throws {
        let text = #"{"type":"page.updated","seq":12,"changes":{"title":"\"Hi\"\n","estimatedProgress":0.5,"dialog":null}}"#
        #expect(try JSONParser.parse(text).serialized == text)
    }
}
