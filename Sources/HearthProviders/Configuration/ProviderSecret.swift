/// A credential the server holds for a provider (Facebook's app secret, Twitter's consumer secret, GitHub's
/// client secret).
///
/// It never prints: `description`, `debugDescription`, `dump` and string interpolation all show
/// `<redacted>`. Read ``value`` only where the secret is used.
public struct ProviderSecret: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The secret itself.
    public let value: String

    /// Wraps a secret read from configuration.
    public init(_ value: String) { self.value = value }

    /// A secret written as a literal (tests, examples).
    public init(stringLiteral value: String) { self.value = value }

    /// Whether the secret is the empty string (that is, not configured).
    public var isEmpty: Bool { value.isEmpty }

    /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
    public var description: String { value.isEmpty ? "<unset>" : "<redacted>" }
    /// Same as ``description``: secrets redacted.
    public var debugDescription: String { description }
    /// No children, so `dump` and reflection cannot reach the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
