extension ValueType {
    /// Whether a parameter of this type takes one value: then a list given to it (piped or written) runs the
    /// action once per element. `Any` and lists take a list as it is.
    public var takesOneValue: Bool {
        switch self {
        case .any, .list: return false
        default: return true
        }
    }
}
