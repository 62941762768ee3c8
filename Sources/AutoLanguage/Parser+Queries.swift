/// `find` and the list stages `filter where`, `sort by`, `limit`, `each`, `group by`, `count by`, `distinct`.
extension Parser {
    // find_query = "find" identifier [ folder_walk ] [ "matching" expression ] [ "where" expression ]
    //              [ "sort" "by" sort_key { "," sort_key } ] [ "limit" expression ] ;
    mutating func parseFind() throws -> Expression {
        enter(.findQuery)
        let start = advance().span
        let typeName = try expectIdentifier("after 'find'")
        let walk = try parseFolderWalk()
        var matching: Expression?, condition: Expression?, limit: Expression?
        var sort: [SortKey] = []
        if acceptWord("matching") { matching = try parseExpression() }
        if acceptWord("where") { condition = try parseExpression() }
        if current.isWord("sort"), peek().isWord("by") {
            _ = advance()
            _ = advance()
            sort = try parseSortKeys()
        }
        if acceptWord("limit") { limit = try parseExpression() }
        let find = FindExpression(typeName: typeName, walk: walk, matching: matching, condition: condition, sort: sort, limit: limit)
        return Expression(kind: .find(find), span: start.to(previous.span))
    }

    // folder_walk = ( "in" expression | "recursive" | "hidden" ) { "recursive" | "hidden" } ;
    // Only `find files` takes one; the checker says so for other types.
    mutating func parseFolderWalk() throws -> FolderWalk? {
        guard current.isWord("in") || current.isWord("recursive") || current.isWord("hidden") else { return nil }
        enter(.folderWalk)
        let start = current.span
        var folder: Expression?
        if acceptWord("in") { folder = try parseExpression() }
        var recursive = false, hidden = false
        while true {
            if acceptWord("recursive") {
                recursive = true
            } else if acceptWord("hidden") {
                hidden = true
            } else {
                break
            }
        }
        return FolderWalk(folder: folder, recursive: recursive, hidden: hidden, span: start.to(previous.span))
    }

    // filter_stage = "filter" "where" expression ;
    mutating func parseFilterStage() throws -> Expression {
        enter(.filterStage)
        let start = advance().span
        _ = advance()
        let condition = try parseExpression()
        return Expression(kind: .listStage(.filter(condition)), span: start.to(condition.span))
    }

    // sort_stage = "sort" "by" sort_key { "," sort_key } ;
    mutating func parseSortStage() throws -> Expression {
        enter(.sortStage)
        let start = advance().span
        _ = advance()
        let keys = try parseSortKeys()
        return Expression(kind: .listStage(.sort(keys)), span: start.to(previous.span))
    }

    // group_stage = ( "group" | "count" ) "by" key_path ;
    mutating func parseGroupStage() throws -> Expression {
        enter(.groupStage)
        let start = advance()
        _ = advance()
        let path = try parseKeyPath("to group by")
        let stage: ListStage = start.isWord("count") ? .count(by: path) : .group(by: path)
        return Expression(kind: .listStage(stage), span: start.span.to(previous.span))
    }

    // distinct_stage = "distinct" ;
    mutating func parseDistinctStage() throws -> Expression {
        enter(.distinctStage)
        return Expression(kind: .listStage(.distinct), span: advance().span)
    }

    // key_path = identifier { "." identifier } ;
    mutating func parseKeyPath(_ context: String) throws -> [Identifier] {
        enter(.keyPath)
        var path = [try expectIdentifier(context)]
        while accept(.dot) {
            skipNewlines()
            path.append(try expectIdentifier("after '.'"))
        }
        return path
    }

    // sort_key = key_path [ "asc" | "desc" ] [ "ignoring" "case" ] ;
    mutating func parseSortKeys() throws -> [SortKey] {
        var keys: [SortKey] = []
        while true {
            enter(.sortKey)
            let path = try parseKeyPath("to sort by")
            var descending = false
            if acceptWord("desc") { descending = true } else { _ = acceptWord("asc") }
            // Nothing else may follow a key (only ',', 'limit' or the end of the stage), so 'ignoring' here is
            // always the modifier, never a name.
            var ignoringCase: Span?
            if current.isWord("ignoring") {
                let start = advance().span
                let caseWord = current
                try expectWord("case", "after 'ignoring' (write 'ignoring case')")
                ignoringCase = start.to(caseWord.span)
                if let direction = current.identifier, ["asc", "desc"].contains(direction) {
                    let key = path.map(\.name).joined(separator: ".")
                    throw error("'\(direction)' goes before 'ignoring case'", hint: "write '\(key) \(direction) ignoring case'")
                }
            }
            keys.append(SortKey(path: path, descending: descending, ignoringCase: ignoringCase))
            guard accept(.comma) else { break }
            skipNewlines()
        }
        return keys
    }

    // limit_stage = "limit" expression ;
    // each_stage = "each" expression ;
    mutating func parseEachStage() throws -> Expression {
        enter(.eachStage)
        let start = advance().span
        // An action for each element, `each plural it word: "book"`, as well as a value, `each it.title`.
        let value = startsAction() ? try parseAction(allowBraceArguments: true) : try parseExpression()
        return Expression(kind: .listStage(.each(value)), span: start.to(value.span))
    }

    mutating func parseLimitStage() throws -> Expression {
        enter(.limitStage)
        let start = advance().span
        let count = try parseExpression()
        return Expression(kind: .listStage(.limit(count)), span: start.to(count.span))
    }
}
