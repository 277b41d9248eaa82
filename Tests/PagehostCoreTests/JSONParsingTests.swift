import PagehostCore
import Testing

/// What `JSONParser` accepts, and what it makes of it.
@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("scalars, arrays and objects parse, object members in their written order")
    func values() throws {
        let value = try JSONParser.parse(#" { "b" : [1, -2.5, true, false, null] , "a" : {"z": "y", "": 0} } "#)
        #expect(value == .object([
            ("b", .array([.number(1), .number(-2.5), .bool(true), .bool(false), .null])),
            ("a", .object([("z", .string("y")), ("", .number(0))])),
        ]))
        #expect(value.objectValue?.map(\.0) == ["b", "a"])
    }

    @Test("a top-level scalar parses", arguments: [
        ("0", JSONValue.number(0)), ("-0", .number(-0.0)), ("1.5e3", .number(1500)), ("1E-2", .number(0.01)),
        ("2e+2", .number(200)), ("\"x\"", .string("x")), ("null", .null), ("true", .bool(true)),
    ])
    func scalars(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("the simple escapes decode")
    func simpleEscapes() throws {
        let value = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t""#)
        #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t"))
    }

    @Test("\\u escapes decode, including U+2028 and a surrogate pair")
    func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u0041\u00e9\u00E9""#) == .string("Aéé"))
        #expect(try JSONParser.parse(#""\u0000\u001f""#) == .string("\u{00}\u{1F}"))
        #expect(try JSONParser.parse(#""a\u2028b\u2029c""#) == .string("a\u{2028}b\u{2029}c"))
        let emoji = try JSONParser.parse(#""\ud83d\ude00""#)
        #expect(emoji == .string("😀"))
        #expect(emoji.stringValue?.unicodeScalars.map(\.value) == [0x1F600])
        #expect(try JSONParser.parse(#""x\uD83D\uDE00y""#) == .string("x😀y"))
    }

    @Test("raw UTF-8 in strings passes through, next to escapes")
    func rawUTF8() throws {
        #expect(try JSONParser.parse("\"héllo → 😀\\n日本\"") == .string("héllo → 😀\n日本"))
        #expect(try JSONParser.parse(Array("\"\u{7F}\"".utf8)) == .string("\u{7F}"))
    }

    @Test("nesting up to maxDepth parses, containers around scalars included")
    func nestingWithinLimit() throws {
        #expect(try JSONParser.parse("[[[]]]", maxDepth: 3) == .array([.array([.array([])])]))
        #expect(try JSONParser.parse("[[[1]]]", maxDepth: 3) == .array([.array([.array([.number(1)])])]))
        #expect(try JSONParser.parse(#"{"a":{"b":{"c":"d"}}}"#, maxDepth: 3)["a"]?["b"]?["c"] == .string("d"))
        #expect(try JSONParser.parse("7", maxDepth: 0) == .number(7))
        let sixtyFour = String(repeating: "[", count: 64) + "true" + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(sixtyFour) }
    }

    @Test("nesting deeper than maxDepth is an error")
    func nestingTooDeep() {
        let error = #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[[[[]]]]", maxDepth: 3) }
        #expect(error?.message.contains("deeper") == true)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a":{"b":{"c":{}}}}"#, maxDepth: 3) }
        let sixtyFive = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(sixtyFive) }
        // Deep enough to overflow the stack if the bound were not checked.
        let huge = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(huge) }
    }

    @Test("the error says where: the byte offset of the trouble")
    func errorOffset() {
        let error = #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a":1} x"#) }
        #expect(error?.offset == 8)
        #expect(error?.description == "unexpected text after the JSON value at byte 8")
    }
}
