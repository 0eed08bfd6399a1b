import HearthConfiguration

/// Printing the services prints their configuration, with its secrets redacted.
extension HearthServices: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "HearthServices(\(configuration))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["configuration": configuration], displayStyle: .struct) }
}
