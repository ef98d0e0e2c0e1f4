// Trimming spaces and tabs without Foundation, for the few places text is cut by hand.


extension String {
    /// The string without leading and trailing spaces and tabs.
    public var trimmedSpaces: String {
        // Most text has nothing to trim: then it is itself, with no copy.
        guard let f = utf8.first, let l = utf8.last else { return self }
        if f != 0x20, f != 0x09, l != 0x20, l != 0x09 { return self }
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
