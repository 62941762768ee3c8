import AutoIntents

/// How a call's arguments are evaluated: one closure per argument, built with the call, each holding its
/// expression's closure, its parameter and the rest of the chain. Reading expressions from the call's array on
/// every call counted a reference to each; a closure held by the closure that calls it is borrowed instead.
extension ActionCall {
    /// Writes the value of each argument (nil where none is written) into the buffer, one entry per parameter, and
    /// says whether every one is already what its parameter takes (`Run.isReady`): then nothing needs preparing.
    typealias ArgumentsStep = @Sendable (Run, Frame, Node, UnsafeMutableBufferPointer<Value?>) throws -> Bool

    static func argumentsStep(_ intent: IntentDescriptor, _ arguments: [Expr?], _ locations: [SourceLocation?],
                              _ textLookups: [QueryDescriptor?]) -> ArgumentsStep {
        var step: ArgumentsStep = { _, _, _, _ in true }
        for index in arguments.indices.reversed() {
            let rest = step, parameter = intent.parameters[index]
            guard let expression = arguments[index] else {
                // Not written: ready as it is only when nothing fills it in (no default, not asked for).
                let ready = !parameter.isRequired && parameter.defaultValue == nil
                step = { run, frame, node, buffer in
                    buffer[index] = nil
                    return try rest(run, frame, node, buffer) && ready
                }
                continue
            }
            let location = locations[index], looksUp = textLookups[index] != nil
            if let constant = expression.constantValue {
                // A constant (`a: 1`) is known ready or not now, and is stored without a call.
                let ready = !looksUp && Coercion.isReady(constant, for: parameter)
                step = { run, frame, node, buffer in
                    buffer[index] = constant
                    return try rest(run, frame, node, buffer) && ready
                }
                continue
            }
            // A closure held by the chain is borrowed when called; a variable is read in place, with no closure.
            let evaluate = expression.compiled
            step = { run, frame, node, buffer in
                let value = try argument(expression, evaluate, at: location, run, frame, node)
                let ready = !looksUp && Coercion.isReady(value, for: parameter)
                buffer[index] = value
                // Every argument is evaluated, in order, whether or not this one is ready.
                return try rest(run, frame, node, buffer) && ready
            }
        }
        return step
    }
}
