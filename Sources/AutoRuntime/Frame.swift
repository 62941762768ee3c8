import AutoIntents

/// The variables of one running script or shortcut call, by slot. Unsafe storage because slots are read
/// and written millions of times in loops; a Swift array in a class would pay for uniqueness and
/// exclusivity checks on each access. Only the executor's task touches a frame.
final class Frame {
    let slots: UnsafeMutableBufferPointer<Value>
    /// The result of the previous statement. Kept in memory of its own, as the slots are, rather than in a stored
    /// property: the compiler reads a stored property's case with a load wider than the byte the last write stored,
    /// which the processor can't forward from that write, and a loop writing `it` on every pass waited on it.
    var it: Value {
        unsafeAddress { UnsafePointer(itStorage) }
        unsafeMutableAddress { itStorage }
    }
    let itStorage: UnsafeMutablePointer<Value>
    /// What `return` gave, until the call that runs this frame hands it back. Unchecked for the same reason as the
    /// slots: only the executor's task reads or writes it.
    @exclusivity(unchecked) var returned: Value = .null

    /// The state of each loop of the code running here (`Code.loopCount`), by the loop's index: where it is, and a
    /// `for` loop's list. In the frame, not in the executor's locals, so that a loop can wait for a call and go on.
    let loops: UnsafeMutableBufferPointer<LoopState>

    /// Storage for the arguments of the action running in this frame, reused from call to call.
    @exclusivity(unchecked) private var argumentBuffer: [Value?] = []
    /// The arguments of a call, evaluated and left for the awaiting path, which runs the call: an immediate call that
    /// found a list piped into it (`Run.runNow`), or a call whose site can't take the values it computed
    /// (`Run.callSite`).
    @exclusivity(unchecked) var evaluatedArguments: [Value?]?

    init(slotCount: Int, loopCount: Int) {
        slots = .allocate(capacity: max(slotCount, 1))
        slots.initialize(repeating: .null)
        itStorage = .allocate(capacity: 1)
        itStorage.initialize(to: .null)
        loops = .allocate(capacity: max(loopCount, 1))
        loops.initialize(repeating: LoopState())
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
        itStorage.deinitialize(count: 1)
        itStorage.deallocate()
        loops.deinitialize()
        loops.deallocate()
    }

    /// The argument buffer, moved out (not copied) so that the caller holds its only reference.
    func takeArguments() -> [Value?] {
        var taken: [Value?] = []
        swap(&taken, &argumentBuffer)
        return taken
    }

    /// Cleared, so that the frame doesn't keep the last call's values alive. Its length stays: the next call
    /// of the same intent writes its arguments in place.
    func giveBack(_ arguments: consuming [Value?]) {
        // Through the buffer: one uniqueness check for the array, not one per element.
        arguments.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = nil }
        }
        argumentBuffer = arguments
    }
}

/// Where a loop is: the passes done and how many there are; for a `for` loop, its list.
struct LoopState {
    var list: [Value] = []
    var done = 0
    var count = 0
}
