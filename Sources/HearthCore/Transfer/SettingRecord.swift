/// One named setting as it is kept in storage (see ``SettingStore``).
public struct SettingRecord: Sendable, Equatable {
    public var name: String
    public var value: String
    /// The tenant whose setting it is (`nil`: the project's); read and written by whole-database copies only.
    public var tenantID: String?

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
