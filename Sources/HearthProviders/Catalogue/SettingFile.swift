import Foundation

/// A file a setting names (a key, a certificate): read as text, or what is wrong with it in words.
public enum SettingFile {
    /// What is wrong with the file, for a message that also names the setting.
    public struct Problem: Error, Sendable {
        public let description: String
    }

    /// The file's text; fails when it is missing, a directory, not readable by this user, or not UTF-8.
    public static func text(atPath path: String) throws(Problem) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Problem(description: "no file at \(path)")
        }
        guard !isDirectory.boolValue else { throw Problem(description: "\(path) is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(path) cannot be read by this user (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(path) is not a text (PEM) file") }
        return text
    }
}

extension ProviderSettingsSource {
    /// The text of the file at `path`, which `key` names; the error names both.
    public func fileText(_ key: String, path: String) throws -> String {
        do {
            return try SettingFile.text(atPath: path)
        } catch {
            throw problem(key, error.description)
        }
    }
}
