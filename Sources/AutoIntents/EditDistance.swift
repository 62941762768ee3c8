/// How many edits turn one word into another, for "did you mean" hints and for matching what people say to an
/// App Shortcut's phrases. In AutoIntents, the lowest module, so that registration (which checks that each phrase
/// matches its own text) and the language's hints share it.
package enum EditDistance {
    /// Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment, the
    /// restricted Damerau–Levenshtein distance).
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
