import AutoIntents
import AutoRuntime

extension Checker {
    mutating func bindBlock(_ statements: [Statement]) -> [BoundStatement] {
        var bound: [BoundStatement] = []
        var endedBy: String?
        for statement in statements {
            // A statement the parser gave up on has had its error; it is not also "never run".
            if case .error = statement.kind { continue }
            if let endedBy {
                error("this is never run: it comes after '\(endedBy)'", statement.span,
                      hint: "remove it, or move it before the '\(endedBy)'")
                break
            }
            if let result = bindStatement(statement) { bound.append(result) }
            switch statement.kind {
            case .stop: endedBy = "stop"
            // Outside a loop they are errors of their own, and what follows them is checked as usual.
            case .breakLoop where loopDepth > 0: endedBy = "break"
            case .continueLoop where loopDepth > 0: endedBy = "continue"
            case .returnValue: endedBy = "return"
            default: break
            }
        }
        return bound
    }

    /// An automation's trigger value keeps its names (`AutomationTriggerNames`): `set` and `for` may not take them.
    mutating func refuseTriggerName(_ name: Identifier) {
        guard let trigger = automationTrigger, trigger.names.contains(name.name) else { return }
        error("'\(name.name)' is \(trigger.meaning(of: name.name)), and no statement may change it", name.span,
              hint: "give the variable another name")
    }

    mutating func bindStatement(_ statement: Statement) -> BoundStatement? {
        switch statement.kind {
        case .expression(let expression):
            let value = bindPipeline(expression)
            var slot: Int?
            if let name = statement.resultName { slot = declare(name, type: value.type) }
            // An action that returns nothing (`show`) leaves `it` as it was: `show x` then `show it` shows x twice.
            if !Self.returnsNothing(value) {
                scope.itType = value.type
                scope.itSetBy = statement.span
            }
            return BoundStatement(kind: .expression(value, resultSlot: slot), span: statement.span)

        case .set(let name, let expression):
            let value = bindPipeline(expression)
            if Self.reservedNames.contains(name.name) {
                error("'\(name.name)' is a built-in name and can't be assigned", name.span, hint: "choose another name")
            } else {
                refuseTriggerName(name)
            }
            let slot = declare(name, type: value.type)
            scope.itType = value.type
            scope.itSetBy = statement.span
            return BoundStatement(kind: .set(slot: slot, value), span: statement.span)

        case .ifElse(let branches, let otherwise):
            var bound: [(condition: BoundExpression, body: [BoundStatement])] = []
            for branch in branches {
                let condition = bindCondition(branch.condition, "the condition of 'if'")
                bound.append((condition, bindBlock(branch.body.statements)))
            }
            let elseBody = otherwise.map { bindBlock($0.statements) }
            scope.itType = .any
            return BoundStatement(kind: .ifElse(bound, otherwise: elseBody), span: statement.span)

        case .forEach(let name, let sequenceExpression, let body):
            let sequence = bindPipeline(sequenceExpression)
            var elementType = ValueType.any
            switch sequence.type {
            case .list(let element): elementType = element
            case .any, .null: break
            default:
                error("'for' goes through a list, and this is \(sequence.type)", sequenceExpression.span,
                      hint: sequence.type == .int ? "to do something n times, write 'repeat n times { … }'" : nil)
            }
            refuseTriggerName(name)
            let slot = declare(name, type: elementType)
            let statements = bindLoopBody(body.statements)
            scope.itType = .any
            return BoundStatement(kind: .forEach(slot: slot, sequence, statements), span: statement.span)

        case .repeatTimes(let countExpression, let body):
            let count = bind(countExpression)
            if !count.type.isAssignable(to: .int) || count.type == .decimal {
                error("'repeat' needs a whole number of times, and this is \(count.type)", countExpression.span)
            }
            let statements = bindLoopBody(body.statements)
            scope.itType = .any
            return BoundStatement(kind: .repeatTimes(count, statements), span: statement.span)

        case .whileLoop(let conditionExpression, let body):
            let condition = bindCondition(conditionExpression, "the condition of 'while'")
            let statements = bindLoopBody(body.statements)
            scope.itType = .any
            return BoundStatement(kind: .whileLoop(condition, statements), span: statement.span)

        case .attempt(let body, let handler):
            let statements = bindBlock(body.statements)
            // `error` is the failure's message inside `otherwise` (and keeps it after, as a loop's variable does).
            let slot = declare(Identifier(name: "error", span: handler.span), type: .text, written: false)
            let handling = bindBlock(handler.statements)
            scope.itType = .any
            return BoundStatement(kind: .attempt(statements, errorSlot: slot, otherwise: handling), span: statement.span)

        case .breakLoop, .continueLoop:
            let word = if case .breakLoop = statement.kind { "break" } else { "continue" }
            guard loopDepth > 0 else {
                error("'\(word)' belongs inside a loop ('for', 'repeat' or 'while')", statement.span,
                      hint: inShortcut ? "to leave the shortcut, write 'return'" : "to end the script, write 'stop'")
                return nil
            }
            return BoundStatement(kind: word == "break" ? .breakLoop : .continueLoop, span: statement.span)

        case .stop:
            return BoundStatement(kind: .stop, span: statement.span)

        case .returnValue(let expression):
            let value = expression.map { bindPipeline($0) }
            returnTypes.append(value?.type ?? .null)
            return BoundStatement(kind: .returnValue(value), span: statement.span)

        case .shortcut(let declaration):
            error("a shortcut is declared at the top level of a file, not inside a block", declaration.nameSpan,
                  hint: "move 'shortcut \"\(declaration.name)\"' out of the block")
            return nil

        case .automation(let declaration):
            error("an automation is declared at the top level of a file, not inside a block", declaration.nameSpan,
                  hint: "move 'automation \"\(declaration.name)\"' out of the block")
            return nil

        case .error:
            return nil
        }
    }

    /// A loop's body: `break` and `continue` in it belong to this loop.
    mutating func bindLoopBody(_ statements: [Statement]) -> [BoundStatement] {
        loopDepth += 1
        defer { loopDepth -= 1 }
        return bindBlock(statements)
    }

    static func returnsNothing(_ value: BoundExpression) -> Bool {
        if case .action = value.kind { return value.type == .null }
        return false
    }

    static let reservedNames: Set<String> = ["it", "now", "today", "true", "false", "nil"]

    /// `written`: whether the script names it there (`set x`), rather than the language (`error` in `otherwise`).
    mutating func declare(_ name: Identifier, type: ValueType, written: Bool = true) -> Int {
        let slot: Int
        if name.name == "args", !inShortcut, let existing = scope.lookup("args") { slot = existing.slot } else { slot = scope.assign(name.name, type: type) }
        symbols?.declare(name, slot: slot, type: type, in: file, written: written)
        return slot
    }

    mutating func bindCondition(_ expression: Expression, _ what: String) -> BoundExpression {
        let condition = bindPipeline(expression)
        if condition.type != .bool && condition.type != .any {
            error("\(what) must be true or false, and this is \(condition.type)", expression.span,
                  hint: condition.type.elementType != nil ? "to test for items, write 'count(…) > 0'" : "compare it, e.g. 'x == 3'")
        }
        return condition
    }
}
