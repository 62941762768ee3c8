/// A call site of a native `ImmediateIntent` made once, when a script is compiled: its constant arguments are set
/// then, in an intent of its own, so that a call writes only what changes from call to call and performs.
///
/// A call through `IntentDescriptor.Implementation.immediate` passes every argument in an array, by parameter
/// index, and the intent is filled in from it, then put back, on every call. In `repeat 1000 times { add numbers
/// a: 1 b: 2 }` nothing changes from call to call: the site's intent already holds `a` and `b`, and a call is
/// `performNow` on it.
///
/// `values` holds the arguments that are `.perCall` in the site's binding, in parameter order, each already of its
/// parameter's exact type (`Coercion.isReady` in the runtime): anything that needs converting, a default filled
/// in or a question takes the array path.
@usableFromInline
package typealias BoundCall = @Sendable (_ values: UnsafeBufferPointer<Value>, IntentContext) throws -> IntentOutput

/// Makes a `BoundCall` from what each parameter is given at the site, by index; nil when a constant is not of its
/// parameter's type (the array path then reports it, as before).
@usableFromInline
package typealias CallBinder = @Sendable (_ arguments: [BoundArgument]) -> BoundCall?

/// A call site of a native intent that awaits (`AppIntent.perform`), made as `BoundCall`'s is: its constants set once
/// in the site's intent, which `owner` holds and `intent` points to. A call is `perform(intent, values, context)`:
/// `values` are the `.perCall` arguments, in parameter order, each of its parameter's exact type, filled into a copy of
/// the site's intent, which the call keeps across its suspensions. A site whose arguments are all constants performs
/// on its own intent, without a copy (`perform` doesn't change it).
///
/// The intent is passed by address, not as its holder: an object passed to an async function is retained and released
/// around the await, and those two atomic operations were a sixth of an awaiting call. The engine keeps `owner` alive
/// for as long as the site can be called (its call owns it). Passed in rather than captured so that, for a site of
/// constants, `perform` captures nothing and the engine's await enters the specialised closure without a forwarder.
@usableFromInline
package struct AwaitingBoundCall: @unchecked Sendable {
    /// What keeps `intent` allocated. (Unchecked `Sendable` for `intent`: the intent it points to is never written.)
    @usableFromInline package let owner: AnyObject & Sendable
    @usableFromInline package let intent: UnsafeRawPointer
    @usableFromInline package let perform: nonisolated(nonsending) @Sendable (_ intent: UnsafeRawPointer, _ values: [Value], IntentContext) async throws -> IntentOutput

    @inlinable
    init<I>(_ owner: SiteIntent<I>,
            _ perform: nonisolated(nonsending) @escaping @Sendable (UnsafeRawPointer, [Value], IntentContext) async throws -> IntentOutput) {
        self.owner = owner
        self.intent = UnsafeRawPointer(owner.pointer)
        self.perform = perform
    }
}

/// `CallBinder` for an intent that awaits.
@usableFromInline
package typealias AwaitingCallBinder = @Sendable (_ arguments: [BoundArgument]) -> AwaitingBoundCall?

/// What a call site gives one parameter.
@usableFromInline
package enum BoundArgument: Sendable {
    /// The same value on every call (`a: 1`), of the parameter's exact type.
    case constant(Value)
    /// A value computed on each call (`a: x + 1`), passed in `values`.
    case perCall
    /// Nothing: the parameter is optional and keeps its default.
    case absent
}

extension IntentDescriptor {
    /// The binder of an immediate intent; nil for one that awaits.
    @inlinable
    static func binder<I: AppIntent>(_ prototype: I, _ parameters: [ParameterSetter]) -> CallBinder? {
        guard let performNow: ImmediatePerform = I.immediatePerform else { return nil }
        return { arguments in
            guard let (site, perCall) = bindConstants(prototype, parameters, arguments) else { return nil }
            guard !perCall.isEmpty else {
                // Every argument is the site's own: a call performs on the site's intent, which nothing writes
                // (`performNow` takes it by address, read-only), so runs calling it at once need not take turns.
                let intent = SiteIntent(site)
                return { _, context in try performNow(intent.pointer, context) }
            }
            let reusable = ReusableIntent(site)
            let fill = valuesFiller(perCall), restore = valuesRestorer(perCall)
            return { values, context in
                guard reusable.take() else {
                    var intent = reusable.prototype.pointee
                    try withUnsafeMutablePointer(to: &intent) { try fill($0, values) }
                    return try withUnsafePointer(to: intent) { try performNow($0, context) }
                }
                defer {
                    // Every per-call parameter, also those a failed fill didn't reach: putting one back that was not
                    // written changes nothing.
                    restore?(reusable.intent, reusable.prototype)
                    reusable.giveBack()
                }
                try fill(reusable.intent, values)
                return try performNow(reusable.intent, context)
            }
        }
    }

    /// The binder of an intent that awaits; nil for an immediate one.
    @inlinable
    static func awaitingBinder<I: AppIntent>(_ prototype: I, _ parameters: [ParameterSetter]) -> AwaitingCallBinder? {
        guard I.immediatePerform == nil else { return nil }
        return { arguments in
            guard let (site, perCall) = bindConstants(prototype, parameters, arguments) else { return nil }
            let shared = SiteIntent(site)
            guard !perCall.isEmpty else {
                return AwaitingBoundCall(shared) { intent, values, context in
                    keepArguments(intent, values, context)
                    return try await perform(intent.assumingMemoryBound(to: I.self).pointee, context)
                }
            }
            let fill = valuesFiller(perCall)
            return AwaitingBoundCall(shared) { site, values, context in
                keepArguments(site, values, context)
                var intent = site.assumingMemoryBound(to: I.self).pointee
                try withUnsafeMutablePointer(to: &intent) { pointer in
                    try values.withUnsafeBufferPointer { values in try fill(pointer, values) }
                }
                return try await perform(intent, context)
            }
        }
    }

    /// Keeps an awaiting site's closure using each of its arguments, whatever the host's `perform` reads. The optimiser
    /// cuts an argument nobody uses (the context, for an intent that doesn't read it) from a copy of the closure and makes
    /// the closure a forwarder to that copy: for an async closure, one more frame allocated and freed on every call
    /// (1M awaiting calls: 61.4–64.7 ms with the forwarder, 52.8–54.1 without).
    @inlinable @inline(__always)
    static func keepArguments(_ intent: UnsafeRawPointer, _ values: [Value], _ context: IntentContext) {
        withExtendedLifetime(intent) {}
        withExtendedLifetime(values) {}
        withExtendedLifetime(context) {}
    }

    /// The site's intent, a copy of the prototype with every constant argument set, and the parameters given a value
    /// on each call, in order; nil when a constant can't be set as it is.
    @inlinable
    static func bindConstants<I: AppIntent>(_ prototype: I, _ parameters: [ParameterSetter],
                                            _ arguments: [BoundArgument]) -> (site: I, perCall: [ParameterSetter])? {
        var site = prototype
        var perCall: [ParameterSetter] = []
        let bound = withUnsafeMutableBytes(of: &site) { intent in
            for (index, argument) in zip(arguments.indices, arguments) {
                switch argument {
                case .constant(let value):
                    guard parameters[index].assign(intent.baseAddress! + parameters[index].offset, value) else { return false }
                case .perCall:
                    perCall.append(parameters[index])
                case .absent:
                    break
                }
            }
            return true
        }
        return bound ? (site, perCall) : nil
    }

    /// Sets the per-call parameters from `values`, in order: a chain of closures, as `filler`'s, whose last link
    /// calls no other.
    @inlinable
    static func valuesFiller(_ parameters: [ParameterSetter]) -> @Sendable (UnsafeMutableRawPointer, UnsafeBufferPointer<Value>) throws -> Void {
        var fill: (@Sendable (UnsafeMutableRawPointer, UnsafeBufferPointer<Value>) throws -> Void)?
        for position in parameters.indices.reversed() {
            let assign = parameters[position].assign, offset = parameters[position].offset, info = parameters[position].info, rest = fill
            fill = { intent, values in
                guard assign(intent + offset, values[position]) else {
                    throw IntentError("'\(info.name)' expects \(info.type), got \(values[position].type)")
                }
                try rest?(intent, values)
            }
        }
        return fill ?? { _, _ in }
    }

    /// Puts the per-call parameters that may hold a reference back to the site's values, so that the reused intent
    /// keeps no argument alive between calls (a big list); nil when none may.
    @inlinable
    static func valuesRestorer(_ parameters: [ParameterSetter]) -> (@Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void)? {
        var restore: (@Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void)?
        for parameter in parameters.reversed() where parameter.holdsReferences {
            let put = parameter.restore, offset = parameter.offset, rest = restore
            restore = { intent, site in
                put(intent + offset, site + offset)
                rest?(intent, site)
            }
        }
        return restore
    }
}

/// A call site's intent when every argument is a constant: made once and never written again. Generic over any type,
/// as `ReusableIntent` is.
@usableFromInline
final class SiteIntent<I>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<I>

    @usableFromInline
    init(_ intent: I) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: intent)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
