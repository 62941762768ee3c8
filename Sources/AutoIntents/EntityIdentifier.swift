import Foundation

/// A type an entity's `id` can have: it reads and writes itself as text, which is how an id travels through
/// scripts, JSON and lookups. UUIDs, texts and integers are; a host's own id type conforms in two lines.
public protocol EntityIdentifier: Hashable, Sendable {
    init?(entityIdentifier text: String)
    var entityIdentifier: String { get }
}

extension String: EntityIdentifier {
    public init?(entityIdentifier text: String) { self = text }
    public var entityIdentifier: String { self }
}

extension UUID: EntityIdentifier {
    public init?(entityIdentifier text: String) { self.init(uuidString: text) }
    /// Lower case, as JSON and most databases write a UUID.
    public var entityIdentifier: String { uuidString.lowercased() }
}

extension Int: EntityIdentifier {
    public init?(entityIdentifier text: String) { self.init(text) }
    public var entityIdentifier: String { String(self) }
}

extension Int64: EntityIdentifier {
    public init?(entityIdentifier text: String) { self.init(text) }
    public var entityIdentifier: String { String(self) }
}

extension Int32: EntityIdentifier {
    public init?(entityIdentifier text: String) { self.init(text) }
    public var entityIdentifier: String { String(self) }
}

extension UInt64: EntityIdentifier {
    public init?(entityIdentifier text: String) { self.init(text) }
    public var entityIdentifier: String { String(self) }
}
