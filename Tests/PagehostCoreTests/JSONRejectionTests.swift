import PagehostCore
import Testing

/// Text that is not JSON, which `JSONParser` must refuse with an error rather than guess at.
@Suite("JSON rejection")
struct JSONRejectionTests {
    struct Input: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let testDescription: String

        init(_ text: String) {
            bytes = Array(text.utf8)
            testDescription = text
        }

        init(bytes: [UInt8], _ label: String) {
            self.bytes = bytes
            testDescription = label
        }
    }

    private static func failure(_ input: Input) -> JSONParser.Failure? {
        do {
            _ = try JSONParser.parse(input.bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("trailing garbage after the value", arguments: [
        Input(#"{"a":1} x"#), Input("1 2"), Input("[]]"), Input("truex"), Input("nullnull"), Input("\"a\"\"b\""),
        Input("{}\u{0}"),
    ])
    func trailingGarbage(input: Input) {
        #expect(Self.failure(input)?.message == "unexpected text after the JSON value")
    }

    @Test("unterminated strings", arguments: [
        Input("\"abc"), Input("\"abc\\"), Input("[\"a]"), Input(#"{"a"#), Input("\""),
    ])
    func unterminatedStrings(input: Input) {
        #expect(Self.failure(input)?.message.contains("unterminated string") == true)
    }

    @Test("bad escapes", arguments: [
        Input(#""\x""#), Input(#""\'""#), Input(#""\a""#), Input(#""\u12""#), Input(#""\u12G4""#), Input(#""\U0041""#),
        Input(#""\u""#),
    ])
    func badEscapes(input: Input) {
        let failure = Self.failure(input)
        #expect(failure != nil)
        #expect(failure?.message.contains("escape") == true)
    }

    @Test("unpaired surrogates", arguments: [
        Input(#""\ud83d""#), Input(#""\ude00""#), Input(#""\ud83dx""#), Input(#""\ud83d\u0041""#),
        Input(#""\ud83d\ud83d""#), Input(#""\ude00\ud83d""#), Input(#""\ud83d\n""#),
    ])
    func unpairedSurrogates(input: Input) {
        #expect(Self.failure(input)?.message == "unpaired surrogate")
    }

    @Test("numbers with leading zeros", arguments: [
        Input("01"), Input("-01"), Input("00"), Input("[00]"), Input(#"{"a":012}"#), Input("0123.5"),
    ])
    func leadingZeros(input: Input) {
        #expect(Self.failure(input) != nil)
    }

    @Test("other malformed numbers", arguments: [
        Input("1."), Input(".5"), Input("-"), Input("+1"), Input("1e"), Input("1e+"), Input("1.e5"), Input("NaN"),
        Input("Infinity"), Input("-Infinity"), Input("0x10"),
    ])
    func malformedNumbers(input: Input) {
        #expect(Self.failure(input) != nil)
    }

    @Test("numbers too large for a Double", arguments: [Input("1e400"), Input("-1e400"), Input("[1e309]")])
    func outOfRange(input: Input) {
        #expect(Self.failure(input)?.message == "number out of range")
    }

    @Test("invalid UTF-8 bytes", arguments: [
        Input(bytes: [0x22, 0xC3, 0x28, 0x22], "bad continuation"),
        Input(bytes: [0x22, 0xFF, 0x22], "0xFF in a string"),
        Input(bytes: [0x22, 0xE2, 0x82, 0x22], "truncated sequence"),
        Input(bytes: [0x22, 0xC0, 0x80, 0x22], "overlong NUL"),
        Input(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "UTF-8-encoded surrogate"),
        Input(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "above U+10FFFF"),
        Input(bytes: [0x22, 0xE2, 0x5C, 0x6E, 0x82, 0xAC, 0x22], "sequence split by an escape"),
        Input(bytes: [0x5B, 0x80, 0x5D], "stray continuation byte outside a string"),
        Input(bytes: [0xFF], "0xFF alone"),
        Input(bytes: [0x7B, 0x22, 0x80, 0x22, 0x3A, 0x31, 0x7D], "in a member name"),
    ])
    func invalidUTF8(input: Input) {
        #expect(Self.failure(input) != nil)
    }

    @Test("lone control characters in strings", arguments: [
        Input(bytes: [0x22, 0x61, 0x0A, 0x62, 0x22], "raw newline"),
        Input(bytes: [0x22, 0x09, 0x22], "raw tab"),
        Input(bytes: [0x22, 0x00, 0x22], "raw NUL"),
        Input(bytes: [0x22, 0x1F, 0x22], "raw 0x1F"),
        Input(bytes: [0x22, 0x0D, 0x22], "raw carriage return"),
    ])
    func controlCharacters(input: Input) {
        #expect(Self.failure(input)?.message == "control character in string")
    }

    @Test("broken structure", arguments: [
        Input(""), Input("   "), Input("["), Input("{"), Input("[1,]"), Input(#"{"a":1,}"#), Input("{a:1}"),
        Input(#"{"a" 1}"#), Input(#"{"a":}"#), Input("'a'"), Input("[1 2]"), Input(#"{"a":1 "b":2}"#), Input("tru"),
        Input("nul"), Input("True"), Input("]"), Input(","),
    ])
    func brokenStructure(input: Input) {
        #expect(Self.failure(input) != nil)
    }
}
