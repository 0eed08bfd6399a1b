/// One named setting as it is kept in storage (see ``SettingStore``).
public struct SettingRecord: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
