import HearthProviders

/// Reads a file a setting names, failing with a ``ConfigurationError`` that names the setting, the path and
/// what is wrong with it: missing, a directory, not readable by this user, or not text.
public enum SettingFiles {
    public static func text(atPath path: String, key: String) throws -> String {
        do {
            return try SettingFile.text(atPath: path)
        } catch {
            throw ConfigurationError(key: key, problem: error.description)
        }
    }
}
