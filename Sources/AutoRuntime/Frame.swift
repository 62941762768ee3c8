import AutoIntents

/// The variables of one running script or shortcut call, by slot. Unsafe storage because slots are read
/// and written millions of times in loops; a Swift array in a class would pay for uniqueness and
/// exclusivity checks on each access. Only the executor's task touches a frame.
final class Frame {
    let slots: UnsafeMutableBufferPointer<Value>
    /// Unchecked for the same reason: only the executor's task reads or writes these.
    @exclusivity(unchecked) var it: Value = .null
    /// What `return` gave, until the call that runs this frame hands it back.
    @exclusivity(unchecked) var returned: Value = .null

    /// Storage for the arguments of the action running in this frame, reused from call to call.
    @exclusivity(unchecked) private var argumentBuffer: [Value?] = []

    init(slotCount: Int) {
        slots = .allocate(capacity: max(slotCount, 1))
        slots.initialize(repeating: .null)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
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
