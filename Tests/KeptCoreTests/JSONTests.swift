// Tests for the store's JSON layer: parsing, error positions, writing, the pull reader, and robustness on hostile input.
// Table rows carry stable ids so a failure names the case to look at.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

/// A number value from its literal text; a bad literal shows up as a failing comparison, never a crash.
private func num(_ text: String) -> JSONValue {
    .number(JSONNumber(text: text) ?? JSONNumber(-999_999))
}

/// The UTF-8 bytes of a string, for building inputs that mix text with raw bytes.
private func utf8(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// Parse outcome as a Result, so tables can compare successes and failures alike.
private func parseResult(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
    Result { () throws(JSONError) -> JSONValue in try JSONParser.parse(bytes) }
}

/// The outcome of skipping instead of building, which must agree with parsing.
private func skipResult(_ bytes: [UInt8]) -> Result<Void, JSONError> {
    Result { () throws(JSONError) in
        var reader = JSONReader(bytes: bytes)
        try reader.skipValue()
        try reader.finish()
    }
}

/// A small seeded generator (SplitMix64), so the random tests are the same on every run
/// (TaskwarriorFastReaderTests uses it too).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class JSONTests: XCTestCase {
    // MARK: - Valid documents

    static let validCases: [(id: String, input: String, expected: JSONValue)] = [
        ("json-ok-01", "null", .null),
        ("json-ok-02", "true", true),
        ("json-ok-03", "false", false),
        ("json-ok-04", "0", num("0")),
        ("json-ok-05", "-0", num("-0")),
        ("json-ok-06", "1.50", num("1.50")),
        ("json-ok-07", "-12.5e+3", num("-12.5e+3")),
        ("json-ok-08", "1E-7", num("1E-7")),
        ("json-ok-09", "123456789012345678901234567890", num("123456789012345678901234567890")),
        ("json-ok-10", "\"\"", ""),
        ("json-ok-11", "\"hello\"", "hello"),
        ("json-ok-12", #""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        ("json-ok-13", #""\u00e9\u00C9\u0041""#, "éÉA"),
        ("json-ok-14", #""\ud83d\ude00 \uD834\uDD1E""#, "😀 𝄞"),
        ("json-ok-15", "\"日本語 🎉 Zoë\"", "日本語 🎉 Zoë"),
        ("json-ok-16", #""a\u0000b""#, "a\u{0}b"),
        ("json-ok-17", "[]", []),
        ("json-ok-18", "{}", [:]),
        ("json-ok-19", " \t\r\n[ 1 , \"a\" , null ] \n", [1, "a", .null]),
        ("json-ok-20", #"{"a":{"b":[{},[],[[1]]]},"c":false}"#, ["a": ["b": [[:], [], [[1]]]], "c": false]),
        ("json-ok-21", #"{"a":1,"b":2,"a":3}"#, ["a": 3, "b": 2]),
        ("json-ok-22", #"{"z":1,"a":2,"m":3}"#, ["z": 1, "a": 2, "m": 3]),
        ("json-ok-23", "\u{FEFF}[1]", [1]),
        ("json-ok-24", #"{"a":1,"\u0061":2}"#, ["a": 2]),
        ("json-ok-25", #""Zo\u00eb \"x\" \u263A \/ end""#, "Zoë \"x\" ☺ / end"),
        ("json-ok-26", #"[-1, 0.5, 1e2, 2E+2, 3e-2, -0.0]"#, [-1, num("0.5"), num("1e2"), num("2E+2"), num("3e-2"), num("-0.0")]),
        ("json-ok-27", #"{"tasks":[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]}],"version":3}"#,
         ["tasks": [["id": 1, "tags": ["a", "b"]], ["id": 2, "tags": []]], "version": 3]),
        ("json-ok-28", "\"\u{7F}\"", "\u{7F}"),
        ("json-ok-29", #""\uFFFF\uE000\u07FF\u0800""#, "\u{FFFF}\u{E000}\u{7FF}\u{800}"),
        ("json-ok-30", "\"\u{10FFFF}\"", "\u{10FFFF}"),
    ]

    func testValidDocuments() {
        for (id, input, expected) in Self.validCases {
            switch parseResult(utf8(input)) {
            case .success(let value):
                XCTAssertEqual(value, expected, "\(id): wrong value")
            case .failure(let error):
                XCTFail("\(id): unexpected error \(error)")
            }
            if case .failure(let error) = skipResult(utf8(input)) {
                XCTFail("\(id): skipValue failed: \(error)")
            }
        }
    }

    func testStringEntryPointMatchesBytes() throws {
        XCTAssertEqual(try JSONParser.parse(#"{"a":[1,"é"]}"#), ["a": [1, "é"]], "json-str-01")
    }

    func testDuplicateKeysKeepFirstPositionAndLastValue() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3,"c":4,"b":5}"#)
        let object = try XCTUnwrap(value.objectValue, "json-dup-01")
        XCTAssertEqual(object.keys, ["a", "b", "c"], "json-dup-01")
        XCTAssertEqual(object["a"], 3, "json-dup-01")
        XCTAssertEqual(object["b"], 5, "json-dup-01")
    }

    func testDuplicateKeysInLargeObjects() throws {
        // Past the linear-scan limit the parser switches to a dictionary; the rule must not change.
        var text = "{"
        for index in 0..<100 {
            text += "\"k\(index)\":\(index),"
        }
        text += "\"k5\":\"five\",\"k99\":\"last\",\"new\":true}"
        let object = try XCTUnwrap(try JSONParser.parse(text).objectValue, "json-dup-02")
        XCTAssertEqual(object.count, 101, "json-dup-02")
        XCTAssertEqual(object.members[5].key, "k5", "json-dup-02")
        XCTAssertEqual(object.members[5].value, "five", "json-dup-02")
        XCTAssertEqual(object.members[99].value, "last", "json-dup-02")
        XCTAssertEqual(object.members[100].key, "new", "json-dup-02")
    }

    func testNestingLimit() {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        if case .failure(let error) = parseResult(utf8(ok)) {
            XCTFail("json-depth-01: 512 levels must parse: \(error)")
        }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        guard case .failure(let error) = parseResult(utf8(tooDeep)) else {
            return XCTFail("json-depth-02: 513 levels must fail")
        }
        XCTAssertEqual(error.column, 513, "json-depth-02")
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        guard case .failure(let objectError) = parseResult(objects) else {
            return XCTFail("json-depth-03: object bomb must fail")
        }
        XCTAssertEqual(objectError.message, "nesting deeper than 512 levels", "json-depth-03")
        XCTAssertEqual(objectError.offset, 512 * 5, "json-depth-03")
        guard case .failure(let skipError) = skipResult(objects) else {
            return XCTFail("json-depth-04: skipping the bomb must fail")
        }
        XCTAssertEqual(skipError, objectError, "json-depth-04")
    }

    // MARK: - Round trips

    static let roundTripCases: [(id: String, input: String, compact: String)] = [
        ("json-rt-01", #"{ "b" : 1.50 , "a":[ true ,null ] }"#, #"{"b":1.50,"a":[true,null]}"#),
        ("json-rt-02", "[-0, 1e5, 2E-3, 0.000, 10]", "[-0,1e5,2E-3,0.000,10]"),
        ("json-rt-03", #""\u00e9\/""#, "\"é/\""),
        ("json-rt-04", #""\u001f\u007f""#, "\"\\u001f\u{7F}\""),
        ("json-rt-05", #"{"x-unknown":{"nested":[1,{"k":"v"}]},"id":7}"#, #"{"x-unknown":{"nested":[1,{"k":"v"}]},"id":7}"#),
        ("json-rt-06", #""😀\ud83d\ude00""#, "\"😀😀\""),
        ("json-rt-07", #"["\b\f\n\r\t\"\\"]"#, #"["\b\f\n\r\t\"\\"]"#),
        ("json-rt-08", #"{"z":{},"y":[],"x":[{}]}"#, #"{"z":{},"y":[],"x":[{}]}"#),
        ("json-rt-09", "123456789012345678901234567890.000000000000000000001",
         "123456789012345678901234567890.000000000000000000001"),
        ("json-rt-10", #""\u0000\u0001\u0002""#, #""\u0000\u0001\u0002""#),
    ]

    func testRoundTrips() throws {
        for (id, input, compact) in Self.roundTripCases {
            let value: JSONValue
            switch parseResult(utf8(input)) {
            case .success(let parsed): value = parsed
            case .failure(let error):
                XCTFail("\(id): unexpected error \(error)")
                continue
            }
            let written = JSONWriter.compact(value)
            XCTAssertEqual(written, compact, "\(id): compact text")
            XCTAssertEqual(try? JSONParser.parse(written), value, "\(id): compact round trip")
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.pretty(value)), value, "\(id): pretty round trip")
        }
    }

    func testEveryValidCaseRoundTrips() {
        for (id, _, expected) in Self.validCases {
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.compact(expected)), expected, "\(id): compact")
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.pretty(expected, indent: 3)), expected, "\(id): pretty")
        }
    }

    func testKeyOrderAndNumberTextSurvive() throws {
        let input = #"{"zeta":1.50,"alpha":{"m":2.0,"b":-0},"mid":1e3}"#
        let value = try JSONParser.parse(input)
        XCTAssertEqual(JSONWriter.compact(value), input, "json-rt-11")
        XCTAssertEqual(value["zeta"]?.numberValue?.text, "1.50", "json-rt-11")
        XCTAssertEqual(value["alpha"]?.objectValue?.keys, ["m", "b"], "json-rt-11")
    }

    // MARK: - Writer

    func testPrettyLayout() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":[true,null],"c":{},"d":[],"e":{"f":"g"}}"#)
        let expected = """
        {
          "a": 1,
          "b": [
            true,
            null
          ],
          "c": {},
          "d": [],
          "e": {
            "f": "g"
          }
        }
        """
        XCTAssertEqual(JSONWriter.pretty(value), expected, "json-pretty-01")
        XCTAssertEqual(JSONWriter.pretty([1, [2]], indent: 4), "[\n    1,\n    [\n        2\n    ]\n]", "json-pretty-02")
        XCTAssertEqual(JSONWriter.pretty("x"), "\"x\"", "json-pretty-03")
        XCTAssertEqual(JSONWriter.pretty([:]), "{}", "json-pretty-04")
    }

    func testAppendAtLevel() {
        // A caller writing records one by one places each value itself; inner lines follow `level`.
        var out = Array("  ".utf8)
        JSONWriter.append(["k": [1]], to: &out, pretty: true, indent: 2, level: 1)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "  {\n    \"k\": [\n      1\n    ]\n  }", "json-append-01")
        var compact: [UInt8] = []
        JSONWriter.append(["a": 1, "b": [true, .null]], to: &compact, pretty: false, indent: 2, level: 3)
        XCTAssertEqual(String(decoding: compact, as: UTF8.self), #"{"a":1,"b":[true,null]}"#, "json-append-02")
    }

    func testStringEscaping() {
        let cases: [(id: String, input: String, expected: String)] = [
            ("json-esc-01", "plain", "\"plain\""),
            ("json-esc-02", "a\"b\\c/d", #""a\"b\\c/d""#),
            ("json-esc-03", "\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
            ("json-esc-04", "\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
            ("json-esc-05", "é😀日本\u{7F}\u{2028}", "\"é😀日本\u{7F}\u{2028}\""),
            ("json-esc-06", "", "\"\""),
        ]
        for (id, input, expected) in cases {
            var out = Array("x".utf8)
            JSONWriter.appendString(input, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "x" + expected, id)
            XCTAssertEqual(try? JSONParser.parse(expected), .string(input), "\(id): reads back")
        }
    }

    // MARK: - Numbers and objects

    func testNumberText() {
        XCTAssertEqual(JSONNumber(42).text, "42", "json-num-01")
        XCTAssertEqual(JSONNumber(-7).text, "-7", "json-num-02")
        XCTAssertEqual(JSONNumber(Int.min).int, Int.min, "json-num-03")
        XCTAssertEqual(JSONNumber(text: "1.50")?.text, "1.50", "json-num-04")
        for (index, bad) in ["", "01", "1.", ".5", "+1", " 1", "1 ", "1e", "-", "NaN", "0x10", "1,0", "--1", "1e+"].enumerated() {
            XCTAssertNil(JSONNumber(text: bad), "json-num-bad-\(index): \(bad)")
        }
        XCTAssertEqual(JSONNumber(text: "42")?.int, 42, "json-num-05")
        XCTAssertEqual(JSONNumber(text: "-0")?.int, 0, "json-num-06")
        XCTAssertNil(JSONNumber(text: "1.0")?.int, "json-num-07")
        XCTAssertNil(JSONNumber(text: "1e2")?.int, "json-num-08")
        XCTAssertNil(JSONNumber(text: "9223372036854775808")?.int, "json-num-09")
        XCTAssertEqual(JSONNumber(text: "-9223372036854775808")?.int, Int.min, "json-num-10")
        XCTAssertEqual(JSONNumber(text: "1.5")?.double, 1.5, "json-num-11")
        XCTAssertEqual(JSONNumber(text: "-2.5e3")?.double, -2500, "json-num-12")
        XCTAssertNil(JSONNumber(text: "1e400")?.double, "json-num-13")
        XCTAssertEqual(JSONNumber(1.5)?.text, "1.5", "json-num-14")
        XCTAssertNil(JSONNumber(Double.nan), "json-num-15")
        XCTAssertNil(JSONNumber(-Double.infinity), "json-num-16")
        for (index, double) in [1e-5, 1e21, -0.0, 123.456, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude].enumerated() {
            let text = JSONNumber(double)?.text ?? "?"
            XCTAssertNotNil(JSONNumber(text: text), "json-num-17-\(index): \(text) must be valid JSON")
            XCTAssertEqual(JSONNumber(text: text)?.double, double, "json-num-17-\(index)")
        }
        XCTAssertNotEqual(JSONNumber(text: "1.0"), JSONNumber(1), "json-num-18: equality is by text")
    }

    func testObjectEditing() {
        var object = JSONObject([("b", 1), ("a", 2), ("b", 3)])
        XCTAssertEqual(object.keys, ["b", "a"], "json-obj-01")
        XCTAssertEqual(object["b"], 3, "json-obj-01")
        object["c"] = "new"
        XCTAssertEqual(object.keys, ["b", "a", "c"], "json-obj-02: setting a missing key appends")
        object["b"] = false
        XCTAssertEqual(object.keys, ["b", "a", "c"], "json-obj-03: setting keeps the position")
        XCTAssertEqual(object["b"], false, "json-obj-03")
        object["a"] = nil
        XCTAssertEqual(object.keys, ["b", "c"], "json-obj-04: nil removes")
        XCTAssertNil(object["a"], "json-obj-04")
        object["missing"] = nil
        XCTAssertEqual(object.count, 2, "json-obj-05")
        XCTAssertEqual(object.index(forKey: "c"), 1, "json-obj-06")
        let reordered: JSONObject = ["c": "new", "b": false]
        XCTAssertNotEqual(object, reordered, "json-obj-07: equality is ordered")
        XCTAssertEqual(object, ["b": false, "c": "new"], "json-obj-08")
        XCTAssertTrue(JSONObject().isEmpty, "json-obj-09")
        XCTAssertEqual(JSONValue.object(object)["c"], "new", "json-obj-10")
    }

    // MARK: - Errors

    static let invalidCases: [(id: String, input: [UInt8], line: Int, column: Int, message: String)] = [
        ("json-err-01", utf8("[1,2,]"), 1, 5, "trailing comma before ']'"),
        ("json-err-02", utf8(#"{"a":1,}"#), 1, 7, "trailing comma before '}'"),
        ("json-err-03", utf8(#"{"a" 1}"#), 1, 6, "expected ':' after an object key, found '1'"),
        ("json-err-04", utf8("\"abc"), 1, 5, "unterminated string"),
        ("json-err-05", utf8("{\n  \"a\": \"abc"), 2, 12, "unterminated string"),
        ("json-err-06", utf8(#""a\qb""#), 1, 3, #"invalid escape '\q'"#),
        ("json-err-07", utf8(#""\u12G4""#), 1, 2, #"invalid \u escape, expected four hex digits"#),
        ("json-err-08", utf8("[01]"), 1, 2, "leading zeros are not allowed in numbers"),
        ("json-err-09", utf8("-012"), 1, 2, "leading zeros are not allowed in numbers"),
        ("json-err-10", utf8("\"a\tb\""), 1, 3, "unescaped control character 0x09 in a string"),
        ("json-err-11", utf8("\"ab\ncd\""), 1, 4, "unescaped line break in a string"),
        ("json-err-12", utf8(#""\ud800""#), 1, 2, #"unpaired surrogate \ud800 in a string"#),
        ("json-err-13", utf8(#"["x\udc00"]"#), 1, 4, #"unpaired surrogate \udc00 in a string"#),
        ("json-err-14", utf8(#""\ud800\u0041""#), 1, 2, #"unpaired surrogate \ud800 in a string"#),
        ("json-err-15", utf8(#""\ud800"#), 1, 2, #"unpaired surrogate \ud800 in a string"#),
        ("json-err-16", utf8("\"a") + [0xFF] + utf8("b\""), 1, 3, "invalid utf-8 byte 0xff"),
        ("json-err-17", utf8("\"") + [0xC3] + utf8("\""), 1, 2, "invalid utf-8 sequence starting with byte 0xc3"),
        ("json-err-18", utf8("\"") + [0xC0, 0x80] + utf8("\""), 1, 2, "invalid utf-8 byte 0xc0"),
        ("json-err-19", utf8("\"") + [0xED, 0xA0, 0x80] + utf8("\""), 1, 2, "invalid utf-8 sequence starting with byte 0xed"),
        ("json-err-20", utf8("\"é") + [0xFF] + utf8("\""), 1, 3, "invalid utf-8 byte 0xff"),
        ("json-err-21", utf8("[") + [0xFF] + utf8("]"), 1, 2, "expected a value, found byte 0xff"),
        ("json-err-22", utf8("1 2"), 1, 3, "extra text after the value"),
        ("json-err-23", utf8("{} x"), 1, 4, "extra text after the value"),
        ("json-err-24", Array(repeating: UInt8(ascii: "["), count: 100_000), 1, 513, "nesting deeper than 512 levels"),
        ("json-err-25", utf8(""), 1, 1, "expected a value, found end of input"),
        ("json-err-26", utf8("  \n "), 2, 2, "expected a value, found end of input"),
        ("json-err-27", utf8(#"{"a":1 "b":2}"#), 1, 8, #"expected ',' or '}' after an object member, found '"'"#),
        ("json-err-28", utf8("[1 2]"), 1, 4, "expected ',' or ']' after an array element, found '2'"),
        ("json-err-29", utf8("{1:2}"), 1, 2, "expected a string key or '}', found '1'"),
        ("json-err-30", utf8("tru"), 1, 1, "invalid literal, expected 'true'"),
        ("json-err-31", utf8("-"), 1, 2, "expected a digit after '-'"),
        ("json-err-32", utf8("1."), 1, 3, "expected a digit after the decimal point"),
        ("json-err-33", utf8("1e+"), 1, 4, "expected a digit in the exponent"),
        ("json-err-34", utf8(".5"), 1, 1, "expected a value, found '.'"),
        ("json-err-35", utf8("+1"), 1, 1, "expected a value, found '+'"),
        ("json-err-36", utf8("[1,,2]"), 1, 4, "expected a value, found ','"),
        ("json-err-37", utf8("// c\n1"), 1, 1, "expected a value, found '/'"),
        ("json-err-38", utf8("[1] // c"), 1, 5, "extra text after the value"),
        ("json-err-39", utf8("'a'"), 1, 1, "expected a value, found '''"),
        ("json-err-40", utf8("[\r\n1,\r\n]"), 2, 2, "trailing comma before ']'"),
        ("json-err-41", utf8("[\n\"日本\", x]"), 2, 7, "expected a value, found 'x'"),
        ("json-err-42", utf8(#"{"a":1"#), 1, 7, "expected ',' or '}' after an object member, found end of input"),
        ("json-err-43", utf8("[1"), 1, 3, "expected ',' or ']' after an array element, found end of input"),
        ("json-err-44", [0x00], 1, 1, "expected a value, found control character 0x00"),
        ("json-err-45", utf8(#"{"a":}"#), 1, 6, "expected a value, found '}'"),
        ("json-err-46", utf8(#"{"a":1,2}"#), 1, 8, "expected a string key after ',', found '2'"),
        ("json-err-47", utf8("NaN"), 1, 1, "expected a value, found 'N'"),
        ("json-err-48", utf8("[1]]"), 1, 4, "extra text after the value"),
        ("json-err-49", utf8("\"\\"), 1, 3, "unterminated string"),
        ("json-err-50", utf8(#""\u12""#), 1, 2, #"invalid \u escape, expected four hex digits"#),
        ("json-err-51", utf8("\u{FEFF}x"), 1, 1, "expected a value, found 'x'"),
        ("json-err-52", utf8("é"), 1, 1, "expected a value, found 'é'"),
        ("json-err-53", utf8(#"["a" : 1]"#), 1, 6, "expected ',' or ']' after an array element, found ':'"),
        ("json-err-54", utf8(#"{"a":1}}"#), 1, 8, "extra text after the value"),
        ("json-err-55", utf8("[nul]"), 1, 2, "invalid literal, expected 'null'"),
        ("json-err-56", utf8("\"") + [0xF5, 0x80, 0x80, 0x80] + utf8("\""), 1, 2, "invalid utf-8 byte 0xf5"),
        ("json-err-57", utf8("\"") + [0xE2, 0x82], 1, 2, "invalid utf-8 sequence starting with byte 0xe2"),
        ("json-err-58", utf8("\"a\\\u{1}\""), 1, 3, "invalid escape sequence"),
        ("json-err-59", utf8("{\"k\":\"v\",\n \"t\": [1,\n  2,\n  x]}"), 4, 3, "expected a value, found 'x'"),
        ("json-err-60", utf8("fals"), 1, 1, "invalid literal, expected 'false'"),
    ]

    func testInvalidDocuments() {
        for (id, input, line, column, message) in Self.invalidCases {
            guard case .failure(let error) = parseResult(input) else {
                XCTFail("\(id): expected an error")
                continue
            }
            XCTAssertEqual(error.message, message, "\(id): message")
            XCTAssertEqual(error.line, line, "\(id): line (\(error))")
            XCTAssertEqual(error.column, column, "\(id): column (\(error))")
            guard case .failure(let skipError) = skipResult(input) else {
                XCTFail("\(id): skipValue accepted what parse refused")
                continue
            }
            XCTAssertEqual(skipError, error, "\(id): skipValue must report the same error")
        }
    }

    func testErrorOffsetsAndDescription() {
        guard case .failure(let error) = parseResult(utf8("[\n  1,\n  2,\n]")) else {
            return XCTFail("json-err-desc-01: expected an error")
        }
        XCTAssertEqual(error.offset, 10, "json-err-desc-01")
        XCTAssertEqual(error.description, "line 3, column 4: trailing comma before ']'", "json-err-desc-01")
    }

    // MARK: - Robustness

    func testRandomBytesNeverCrash() {
        var random = SeededRandom(state: 0x5EED)
        let alphabet = utf8("{}[],:\"\\ 0123456789-+.eEtrufalsn\n\tu\r/ab") + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xF0, 0x9F, 0x80]
        for round in 0..<3000 {
            let length = Int.random(in: 0...48, using: &random)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            checkConsistent(bytes, id: "json-fuzz-random-\(round)")
        }
    }

    func testMutatedDocumentsNeverCrash() {
        let document = utf8("""
        {"version": 3, "tasks": [
          {"id": 1, "title": "Buy milk \\u00e9 \\ud83d\\ude00 Zoë", "done": false, "due": null, "tags": ["a", "b"]},
          {"id": -2, "estimate": 1.50e-3, "notes": "line\\nbreak \\"quoted\\"", "x": {"deep": [[], {}, [0]]}}
        ]}
        """)
        XCTAssertNotNil(try? JSONParser.parse(document), "json-fuzz-base: the seed document must parse")
        var random = SeededRandom(state: 0xC0FFEE)
        let interesting = utf8("{}[],:\"\\0-.e") + [0x00, 0x0A, 0xC3, 0xFF, 0xED]
        for round in 0..<3000 {
            var bytes = document
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<max(bytes.count, 1), using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !bytes.isEmpty:
                    bytes[position] = interesting[Int.random(in: 0..<interesting.count, using: &random)]
                case 1:
                    bytes.insert(interesting[Int.random(in: 0..<interesting.count, using: &random)], at: min(position, bytes.count))
                case 2 where !bytes.isEmpty:
                    bytes.remove(at: position)
                case 3:
                    bytes.removeSubrange(min(position, bytes.count)...)
                case 4 where !bytes.isEmpty:
                    bytes[position] = UInt8.random(in: 0...255, using: &random)
                default:
                    bytes.append(UInt8(ascii: "]"))
                }
            }
            checkConsistent(bytes, id: "json-fuzz-mutation-\(round)")
        }
    }

    func testRandomValuesRoundTrip() {
        var random = SeededRandom(state: 0xA11CE)
        for round in 0..<1000 {
            let value = randomValue(depth: 0, using: &random)
            let id = "json-fuzz-value-\(round)"
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.compact(value)), value, "\(id): compact")
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.pretty(value, indent: round % 5)), value, "\(id): pretty")
        }
    }

    /// A random value of every kind, with strings full of characters that need escaping or are multi-byte.
    private func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth >= 4 ? 4 : 7), using: &random) {
        case 0:
            return .null
        case 1:
            return .bool(Bool.random(using: &random))
        case 2:
            let literals = ["1.50", "-0", "1e5", "2E-3", "0.000", "123456789012345678901234567890"]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .number(JSONNumber(Int.random(in: Int.min...Int.max, using: &random)))
            case 1: return .number(JSONNumber(Double.random(in: -1e300...1e300, using: &random)) ?? 0)
            default: return num(literals[Int.random(in: 0..<literals.count, using: &random)])
            }
        case 3:
            return .string(randomString(using: &random))
        case 4, 5:
            let count = Int.random(in: 0..<5, using: &random)
            return .array((0..<count).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            let count = Int.random(in: 0..<5, using: &random)
            let members = (0..<count).map { _ in (randomString(using: &random), randomValue(depth: depth + 1, using: &random)) }
            return .object(JSONObject(members))
        }
    }

    private func randomString(using random: inout SeededRandom) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1F}", "\n", "\t", "\u{7F}",
                                      "é", "日", "😀", "\u{2028}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}"]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0..<8, using: &random) {
            scalars.append(pool[Int.random(in: 0..<pool.count, using: &random)])
        }
        return String(scalars)
    }

    /// Parsing either succeeds and round-trips, or fails with a sane error that skipping agrees with.
    private func checkConsistent(_ bytes: [UInt8], id: String) {
        switch parseResult(bytes) {
        case .success(let value):
            XCTAssertEqual(try? JSONParser.parse(JSONWriter.compact(value)), value, "\(id): round trip")
            if case .failure(let error) = skipResult(bytes) {
                XCTFail("\(id): skipValue refused what parse accepted: \(error)")
            }
        case .failure(let error):
            XCTAssertTrue((0...bytes.count).contains(error.offset), "\(id): offset \(error.offset)")
            XCTAssertGreaterThanOrEqual(error.line, 1, id)
            XCTAssertGreaterThanOrEqual(error.column, 1, id)
            XCTAssertFalse(error.message.hasSuffix(".") || error.message.contains("\n"), "\(id): \(error.message)")
            XCTAssertEqual(error.message.first.map { $0.isLowercase }, true, "\(id): \(error.message)")
            guard case .failure(let skipError) = skipResult(bytes) else {
                return XCTFail("\(id): skipValue accepted what parse refused")
            }
            XCTAssertEqual(skipError, error, "\(id): same error from skipValue")
        }
    }

    // MARK: - Reader

    /// What a store decoder would build: known fields typed, unknown ones kept as they were.
    private struct Task: Equatable {
        var id = 0
        var title = ""
        var done = false
        var due: String?
        var extra: [String: JSONValue] = [:]
    }

    func testReaderWalksRecords() throws {
        let document = """
        {"version": 2, "tasks": [
          {"id": 1, "title": "Buy milk", "done": false, "due": null, "x-color": "red"},
          {"id": 2, "title": "Call \\"Zoë\\"", "extra": {"a": [1, 2]}, "done": true, "due": "2025-03-01"},
          {}
        ], "trailer": [true, {"skip": "me"}]}
        """
        var reader = JSONReader(bytes: utf8(document))
        var version = 0
        var tasks: [Task] = []
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch key {
            case "version":
                version = try reader.readInt()
            case "tasks":
                try reader.beginArray()
                while try reader.nextElement() {
                    var task = Task()
                    try reader.beginObject()
                    while let field = try reader.nextKey() {
                        switch field {
                        case "id": task.id = try reader.readInt()
                        case "title": task.title = try reader.readString()
                        case "done": task.done = try reader.readBool()
                        case "due": task.due = try reader.readStringOrNull()
                        default: task.extra[field] = try reader.readValue()
                        }
                    }
                    tasks.append(task)
                }
            default:
                try reader.skipValue()
            }
        }
        try reader.finish()
        XCTAssertEqual(version, 2, "json-reader-01")
        XCTAssertEqual(tasks, [
            Task(id: 1, title: "Buy milk", done: false, due: nil, extra: ["x-color": "red"]),
            Task(id: 2, title: "Call \"Zoë\"", done: true, due: "2025-03-01", extra: ["extra": ["a": [1, 2]]]),
            Task(),
        ], "json-reader-01")
    }

    /// The string scanner reads eight bytes at a time and stops at the first special byte of a
    /// word: a quote, a backslash, a control byte or a non-ASCII byte at every offset in and
    /// across the words must give the string the byte-at-a-time reading gives.
    func testStringScanStopsAtEverySpecialOffset() throws {
        let specials: [(insert: String, text: String?)] = [
            ("\\\"", "\""), ("\\n", "\n"), ("\\u00e9", "é"), ("é", "é"), ("🙂", "🙂"), ("\u{01}", nil), ("\u{1F}", nil),
        ]
        for length in 0..<20 {
            for at in 0...length {
                for (insert, text) in specials {
                    let plain = String(repeating: "a", count: length)
                    let i = plain.index(plain.startIndex, offsetBy: at)
                    let raw = String(plain[..<i]) + insert + String(plain[i...])
                    let document = "[\"" + raw + "\", 1" + String(repeating: " ", count: 20) + "]"
                    var reader = JSONReader(bytes: utf8(document))
                    try reader.beginArray()
                    XCTAssertTrue(try reader.nextElement())
                    let label = "json-scan: \(length) \(at) \(insert.debugDescription)"
                    guard let want = text else {
                        XCTAssertThrowsError(try reader.readStringRef(), label)
                        continue
                    }
                    let ref = try reader.readStringRef()
                    XCTAssertEqual(reader.string(ref), String(plain[..<i]) + want + String(plain[i...]), label)
                    XCTAssertTrue(try reader.nextElement(), label)
                    XCTAssertEqual(try reader.readInt(), 1, label)
                }
            }
        }
    }

    func testReaderPeeksAndNulls() throws {
        var reader = JSONReader(bytes: utf8(#" [null, 5, "s", nul]"#))
        XCTAssertEqual(reader.peekKind(), .array, "json-reader-02")
        try reader.beginArray()
        XCTAssertTrue(try reader.nextElement(), "json-reader-02")
        XCTAssertTrue(reader.isNull(), "json-reader-02")
        XCTAssertTrue(try reader.nextElement(), "json-reader-02")
        XCTAssertFalse(reader.isNull(), "json-reader-02: a number is not null")
        XCTAssertEqual(try reader.readIntOrNull(), 5, "json-reader-02")
        XCTAssertTrue(try reader.nextElement(), "json-reader-02")
        XCTAssertEqual(reader.peekKind(), .string, "json-reader-02")
        XCTAssertEqual(try reader.readStringOrNull(), "s", "json-reader-02")
        XCTAssertTrue(try reader.nextElement(), "json-reader-02")
        let before = reader.offset
        XCTAssertFalse(reader.isNull(), "json-reader-02: 'nul' is not null")
        XCTAssertEqual(reader.offset, before, "json-reader-02: nothing consumed")
        XCTAssertThrowsError(try reader.skipValue(), "json-reader-02")
    }

    func testReaderIntegers() throws {
        var reader = JSONReader(bytes: utf8("[9223372036854775807, -9223372036854775808, -0, null, 3]"))
        try reader.beginArray()
        var values: [Int?] = []
        while try reader.nextElement() {
            values.append(try reader.readIntOrNull())
        }
        try reader.finish()
        XCTAssertEqual(values, [Int.max, Int.min, 0, nil, 3], "json-reader-03")
        var numbers = JSONReader(bytes: utf8("1.50"))
        XCTAssertEqual(try numbers.readNumber().text, "1.50", "json-reader-04")
    }

    static let readerErrorCases: [(id: String, input: String, read: @Sendable (inout JSONReader) throws(JSONError) -> Void, column: Int, message: String)] = [
        ("json-reader-err-01", " 1.5", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readInt() }, 2, "expected an integer, found 1.5"),
        ("json-reader-err-02", "\"x\"", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readInt() }, 1, "expected an integer, found a string"),
        ("json-reader-err-03", "99999999999999999999", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readInt() }, 1,
         "integer 99999999999999999999 is out of range"),
        ("json-reader-err-04", "12", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readString() }, 1, "expected a string, found a number"),
        ("json-reader-err-05", "null", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readBool() }, 1, "expected true or false, found null"),
        ("json-reader-err-06", "  1", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readStringOrNull() }, 3,
         "expected a string or null, found a number"),
        ("json-reader-err-07", "[]", { (reader: inout JSONReader) throws(JSONError) in try reader.beginObject() }, 1, "expected an object, found an array"),
        ("json-reader-err-08", "{}", { (reader: inout JSONReader) throws(JSONError) in try reader.beginArray() }, 1, "expected an array, found an object"),
        ("json-reader-err-09", "true", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readIntOrNull() }, 1, "expected an integer or null, found true"),
        ("json-reader-err-10", "1e5", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readInt() }, 1, "expected an integer, found 1e5"),
        ("json-reader-err-11", "\"a\"", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readNumber() }, 1, "expected a number, found a string"),
        ("json-reader-err-12", "1 2", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readInt(); try reader.finish() }, 3, "extra text after the value"),
        ("json-reader-err-13", "", { (reader: inout JSONReader) throws(JSONError) in _ = try reader.readString() }, 1, "expected a string, found end of input"),
    ]

    func testReaderTypeErrors() {
        for (id, input, read, column, message) in Self.readerErrorCases {
            var reader = JSONReader(bytes: utf8(input))
            let result = Result { () throws(JSONError) in try read(&reader) }
            guard case .failure(let error) = result else {
                XCTFail("\(id): expected an error")
                continue
            }
            XCTAssertEqual(error.message, message, id)
            XCTAssertEqual(error.line, 1, id)
            XCTAssertEqual(error.column, column, id)
        }
    }

    func testReaderCustomErrors() throws {
        var reader = JSONReader(bytes: utf8("{\n  \"due\": \"someday\"\n}"))
        try reader.beginObject()
        _ = try reader.nextKey()
        reader.skipWhitespace()
        let start = reader.offset
        XCTAssertEqual(try reader.readString(), "someday", "json-reader-05")
        let error = reader.error("due must be a date", at: start)
        XCTAssertEqual(error.line, 2, "json-reader-05")
        XCTAssertEqual(error.column, 10, "json-reader-05")
        XCTAssertEqual(reader.error("here").column, 19, "json-reader-06")
    }

    /// The string writer finds plain runs eight bytes at a time: it must escape exactly what the
    /// plain byte-by-byte rule escapes, wherever in a word the byte falls, and keep every other byte.
    func testStringsAreEscapedWhereverTheBytesFall() throws {
        func plain(_ s: String) -> [UInt8] {
            var out: [UInt8] = [0x22]
            for b in s.utf8 {
                switch b {
                case 0x22: out += Array("\\\"".utf8)
                case 0x5C: out += Array("\\\\".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0x08: out += Array("\\b".utf8)
                case 0x0C: out += Array("\\f".utf8)
                case ..<0x20: out += Array(String(format: "\\u%04x", Int(b)).utf8)
                default: out.append(b)
                }
            }
            out.append(0x22)
            return out
        }
        // Bytes at the edges of each test: 0x1F/0x20, 0x21/0x22/0x23, 0x5B/0x5C/0x5D, 0x7F, and
        // multi-byte characters whose bytes are at or above 0x80.
        let pieces = ["a", " ", "\u{1F}", "\u{00}", "\n", "\"", "!", "#", "[", "\\", "]", "\u{7F}", "é", "€", "😀", "\t", "xyzxyzxy"]
        var rng = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for _ in 0..<60 {
                var s = ""
                for _ in 0..<length { s += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
                var out: [UInt8] = []
                JSONWriter.appendString(s, to: &out)
                XCTAssertEqual(out, plain(s), "\(s.debugDescription)")
                var r = JSONReader(bytes: out)
                XCTAssertEqual(try r.readValue().stringValue, s)
            }
        }
        // One special byte at each place of a long plain string.
        for k in 0..<24 {
            for special in ["\"", "\\", "\u{01}", "\u{1F}"] {
                var chars = Array(repeating: "q", count: 24)
                chars[k] = special
                let s = chars.joined()
                var out: [UInt8] = []
                JSONWriter.appendString(s, to: &out)
                XCTAssertEqual(out, plain(s), "\(k) \(special.debugDescription)")
            }
        }
        // The plain runs come from the reader's eight-byte scan: it stops at the first byte to
        // escape (or past ASCII, written as it is), and nowhere else.
        for w: UInt64 in [0, 0x2020_2020_2020_2020, 0x2121_2121_2121_2121, 0xFFFF_FFFF_FFFF_FFFF, 0x8080_8080_8080_8080] {
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: w >> (8 * UInt64($0))) }
            let end = bytes.withUnsafeBufferPointer { JSONReader.plainRunEnd($0, from: 0) }
            XCTAssertEqual(end < 8, bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }, String(w, radix: 16))
        }
    }
}
