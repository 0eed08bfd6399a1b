import Foundation
import HearthCore

/// Reads a file a setting names, failing with a ``ConfigurationError`` that names the setting, the path and
/// what is wrong with it: missing, a directory, not readable by this user, or not text.
enum SettingFiles {
    static func text(atPath path: String, key: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(key: key, problem: "no file at \(path)")
        }
        guard !isDirectory.boolValue else { throw ConfigurationError(key: key, problem: "\(path) is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(key: key, problem: "\(path) cannot be read by this user (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(key: key, problem: "\(path) is not a text (PEM) file")
        }
        return text
    }
}
