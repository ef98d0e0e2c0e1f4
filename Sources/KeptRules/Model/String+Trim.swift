// Trimming spaces and tabs without Foundation, for the few places text is cut by hand.


extension String {
    /// The string without leading and trailing spaces and tabs.
    public var trimmedSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
