import Foundation
import HearthCore
import Mustache

extension MailTemplates {
    /// The variables override templates may use.
    static let variableNames: Set<String> = ["appName", "link", "email", "newEmail", "lang"]

    /// What `subject` and `txt` files are prefixed with, so that their values are not HTML-escaped: a line of its own
    /// (a standalone tag, so it leaves nothing behind), taken off the line numbers of parse errors.
    private static let textPragma = "{{% CONTENT_TYPE: TEXT}}\n"

    static func loadOverrides(from directory: URL) throws -> [OverrideKey: MustacheTemplate] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw OverrideError(file: directory.path, problem: "cannot read the mail template folder (\(error.localizedDescription))")
        }
        var overrides: [OverrideKey: MustacheTemplate] = [:]
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            let key = try overrideKey(forFileNamed: name, path: url.path)
            overrides[key] = try compile(url, part: key.part)
        }
        return overrides
    }

    /// The kind, language and part a file name stands for.
    static func overrideKey(forFileNamed name: String, path: String) throws -> OverrideKey {
        let pattern = "expected <mode>.<part>.mustache or <mode>.<lang>.<part>.mustache"
        guard name.hasSuffix(".mustache") else {
            throw OverrideError(file: path, problem: "unexpected file in the mail template folder (\(pattern))")
        }
        let components = name.dropLast(".mustache".count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.count == 2 || components.count == 3 else {
            throw OverrideError(file: path, problem: "unexpected file name (\(pattern))")
        }
        guard let kind = ActionCodeKind(mode: components[0]) else {
            let modes = ActionCodeKind.allCases.map(\.mode).joined(separator: ", ")
            throw OverrideError(file: path, problem: "unknown mode '\(components[0])' (expected one of \(modes))")
        }
        guard let part = Part(rawValue: components[components.count - 1]) else {
            let parts = Part.allCases.map(\.rawValue).joined(separator: ", ")
            throw OverrideError(file: path, problem: "unknown part '\(components[components.count - 1])' (expected one of \(parts))")
        }
        var language: EmailActionLanguage?
        if components.count == 3 {
            guard let code = EmailActionLanguage(rawValue: components[1]) else {
                let codes = EmailActionLanguage.allCases.map(\.code).joined(separator: ", ")
                throw OverrideError(file: path, problem: "unknown language '\(components[1])' (expected one of \(codes))")
            }
            language = code
        }
        return OverrideKey(kind: kind, language: language, part: part)
    }

    /// The template in `url`, compiled and checked for unknown variables.
    private static func compile(_ url: URL, part: Part) throws -> MustacheTemplate {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw OverrideError(file: url.path, problem: "not a regular file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw OverrideError(file: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
        guard let source = String(data: data, encoding: .utf8) else {
            throw OverrideError(file: url.path, problem: "is not UTF-8 text")
        }
        return try compile(source, part: part, file: url.path)
    }

    /// `source` compiled as `part`, checked for partials and unknown variables; errors name `file`.
    static func compile(_ source: String, part: Part, file: String) throws -> MustacheTemplate {
        if source.contains("{{>") || source.contains("{{<") {
            throw OverrideError(file: file, problem: "partials ({{> name}}) are not supported: each mail part is one file")
        }
        let prefix = part == .html ? "" : textPragma
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: prefix + source)
        } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber - (prefix.isEmpty ? 0 : 1)
            throw OverrideError(
                file: file, problem: "line \(max(line, 1)), column \(error.context.columnNumber): \(error.error) in '\(error.context.line)'")
        } catch {
            throw OverrideError(file: file, problem: "\(error)")
        }
        // Rendering with and without `newEmail` reaches both sides of `{{#newEmail}}` sections.
        for newEmail in [true, false] {
            let recorder = VariableRecorder(newEmail: newEmail)
            _ = template.render(recorder)
            if let unknown = recorder.unknownNames.sorted().first {
                let names = variableNames.sorted().joined(separator: ", ")
                throw OverrideError(file: file, problem: "unknown variable '\(unknown)' (expected one of \(names))")
            }
        }
        return template
    }
}

/// Sample values for a test render that notes every name a template asks for but that does not exist.
private final class VariableRecorder: MustacheParent {
    private let values: [String: String]
    private(set) var unknownNames: Set<String> = []

    init(newEmail: Bool) {
        var values = ["appName": "App", "link": "https://example.com/", "email": "old@example.com", "lang": "en"]
        if newEmail {
            values["newEmail"] = "new@example.com"
        }
        self.values = values
    }

    func child(named name: String) -> Any? {
        if let value = values[name] {
            return value
        }
        if !MailTemplates.variableNames.contains(name) {
            unknownNames.insert(name)
        }
        return nil
    }
}
