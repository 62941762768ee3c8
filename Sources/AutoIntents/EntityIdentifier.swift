import Foundation

/// A type an entity's `id` can have: it reads and writes itself as text, which is how an id travels through
/// scripts, JSON and lookups. UUIDs, texts and integers are; a host's own id type conforms in two lines.
///
/// ```swift
/// extension ISBN: EntityIdentifier {
///     init?(entityIdentifier text: String) { self.init(text) }
///     var entityIdentifier: String { digits }
/// }
/// ```
public protocol EntityIdentifier: Hashable, Sendable {
    /// The identifier a text spells; nil when it spells none.
    init?(entityIdentifier text: String)
    /// The identifier as text; reading it back gives the same identifier.
    var entityIdentifier: String { get }
}

extension String: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self = text }
    /// The identifier as text.
    public var entityIdentifier: String { self }
}

extension UUID: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self.init(uuidString: text) }
    /// Lower case, as JSON and most databases write a UUID.
    public var entityIdentifier: String { uuidString.lowercased() }
}

extension Int: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self.init(text) }
    /// The identifier as text.
    public var entityIdentifier: String { String(self) }
}

extension Int64: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self.init(text) }
    /// The identifier as text.
    public var entityIdentifier: String { String(self) }
}

extension Int32: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self.init(text) }
    /// The identifier as text.
    public var entityIdentifier: String { String(self) }
}

extension UInt64: EntityIdentifier {
    /// The identifier a text spells; nil when it spells none.
    public init?(entityIdentifier text: String) { self.init(text) }
    /// The identifier as text.
    public var entityIdentifier: String { String(self) }
}
