import Configuration
import Foundation
import HearthTelemetry

extension ServerConfiguration {
    /// Where the server's spans go (`tracing.*`): an OpenTelemetry collector over OTLP/HTTP, or nowhere.
    public struct Tracing: Sendable, Equatable {
        /// How spans are encoded for the collector (`tracing.protocol`).
        public enum WireProtocol: String, Sendable, Equatable, CaseIterable {
            /// `http/protobuf`: OTLP's binary encoding (the default).
            case httpProtobuf = "http/protobuf"
            /// `http/json`: OTLP's JSON encoding.
            case httpJSON = "http/json"
        }

        /// `tracing.otlpEndpoint`: the absolute http(s) URL of an OTLP/HTTP collector, such as
        /// `http://collector:4318`; spans go to its `/v1/traces` (a URL that already ends in `/v1/traces` is used as
        /// it is). A `user:password@` in it is sent as HTTP Basic authorization and never logged. `nil` (default):
        /// no tracing, and nothing spent on it.
        public var otlpEndpoint: String?
        /// `tracing.serviceName`: the spans' `service.name`; `hearth` by default.
        public var serviceName = "hearth"
        /// `tracing.protocol`: `http/protobuf` (default) or `http/json`.
        public var wireProtocol = WireProtocol.httpProtobuf
        /// `tracing.sampleRatio`: the share of the traces that start here that are kept, 0 to 1 (default 1: all).
        /// A request with a `traceparent` header follows its caller's decision instead.
        public var sampleRatio = 1.0

        public init() {}

        /// Whether spans are exported.
        public var enabled: Bool { otlpEndpoint != nil }

        /// Where spans are posted: the endpoint's `/v1/traces`, without credentials; `nil` when tracing is off.
        public var tracesURL: String? {
            guard let otlpEndpoint, var components = URLComponents(string: otlpEndpoint) else { return nil }
            components.user = nil
            components.password = nil
            var path = components.percentEncodedPath
            if !path.hasSuffix("/v1/traces") {
                while path.hasSuffix("/") { path.removeLast() }
                path += "/v1/traces"
            }
            components.percentEncodedPath = path
            return components.string
        }

        /// `Basic …` for the endpoint's `user:password@`, `nil` without one.
        public var authorization: String? {
            guard let otlpEndpoint, let components = URLComponents(string: otlpEndpoint), let user = components.user else { return nil }
            let credentials = "\(user):\(components.password ?? "")"
            return "Basic " + Data(credentials.utf8).base64EncodedString()
        }
    }

    /// Reads `tracing.*`. Every key is read whether tracing is on or not, so that each is a known setting.
    static func readTracing(_ r: ConfigValues) throws -> Tracing {
        var tracing = Tracing()
        if let text = try r.string("tracing.otlpEndpoint", isSecret: true) {
            guard let url = URLComponents(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false, url.query == nil, url.fragment == nil
            else {
                // Not the value itself: it may carry a password.
                throw ConfigurationError(
                    key: "tracing.otlpEndpoint",
                    problem: "expected the http(s) URL of an OTLP/HTTP collector without query or fragment, e.g. http://collector:4318")
            }
            tracing.otlpEndpoint = text
        }
        tracing.serviceName = try r.string("tracing.serviceName") ?? tracing.serviceName
        guard tracing.serviceName.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }), tracing.serviceName.count <= 255
        else {
            throw ConfigurationError(key: "tracing.serviceName", problem: "expected at most 255 printable characters")
        }
        if let text = try r.string("tracing.protocol") {
            guard let wireProtocol = Tracing.WireProtocol(rawValue: text.lowercased()) else {
                throw ConfigurationError(
                    key: "tracing.protocol", problem: "expected http/protobuf or http/json (OTLP over gRPC is not built in), got \(text)")
            }
            tracing.wireProtocol = wireProtocol
        }
        tracing.sampleRatio = try r.ratio("tracing.sampleRatio") ?? tracing.sampleRatio
        return tracing
    }
}

extension ConfigValues {
    /// A number from 0 to 1.
    func ratio(_ key: String) throws -> Double? {
        let value: Double
        if let number = reader.double(forKey: ConfigKey(key)) {
            value = number
        } else if let number = reader.int(forKey: ConfigKey(key)) {
            value = Double(number)
        } else if let text = reader.string(forKey: ConfigKey(key)) {
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError(key: key, problem: "expected a number from 0 to 1, got \(text)")
            }
            value = number
        } else {
            return nil
        }
        guard value.isFinite, (0...1).contains(value) else {
            throw ConfigurationError(key: key, problem: "\(value) is outside 0...1")
        }
        return value
    }
}

extension ServerConfiguration.Tracing {
    /// What the trace exporter needs; `nil` when tracing is off.
    public var exportSettings: TraceExport.Settings? {
        tracesURL.map {
            TraceExport.Settings(
                tracesURL: $0, serviceName: serviceName, protobuf: wireProtocol == .httpProtobuf, authorization: authorization,
                sampleRatio: sampleRatio)
        }
    }
}
