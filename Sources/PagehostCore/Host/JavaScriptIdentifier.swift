/// Names that can be a JavaScript function's parameter: evaluate's argument names become local variables.
enum JavaScriptIdentifier {
    private static let reserved: Set<String> = [
        "arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
        "delete", "do", "else", "enum", "eval", "export", "extends", "false", "finally", "for", "function", "if",
        "implements", "import", "in", "instanceof", "interface", "let", "new", "null", "package", "private",
        "protected", "public", "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof",
        "var", "void", "while", "with", "yield",
    ]

    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= 256, !reserved.contains(name) else { return false }
        func isStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c == "$" || (c.isASCII && c.properties.isAlphabetic) }
        func isPart(_ c: Unicode.Scalar) -> Bool { isStart(c) || ("0"..."9").contains(c) }
        return isStart(first) && name.unicodeScalars.dropFirst().allSatisfy(isPart)
    }
}
