/// Which region an E.164 number belongs to, from its country calling code and, where regions share a code (+1, +7,
/// +44, …), its leading digits; and whether its length is one the region's numbers have. The table
/// (`PhoneRegions+Table.swift`) is generated from libphonenumber's metadata by `scripts/generate-phone-regions.py`.
///
/// What SMS needs: a region for the operator's SMS region policy (``SMSRegionPolicy``), and a refusal of numbers no
/// region has before an SMS is paid for. It does not tell a mobile number from a landline.
public enum PhoneRegions {
    struct CallingCode: Sendable {
        /// The region of numbers no prefix names (ISO 3166-1 alpha-2; `001` for non-geographic codes).
        let main: String
        /// How many digits a national number has.
        let lengths: Set<Int>
        /// Leading digits of the national number → the region sharing the code that they pick.
        let prefixes: [String: String]
    }

    /// The region libphonenumber gives non-geographic numbers (satellite phones, international networks, +800, +979).
    public static let nonGeographic = "001"

    /// The region of `e164` (a number ``PhoneNumber/validated(_:)`` accepted): ISO 3166-1 alpha-2, or `001` for
    /// non-geographic numbers; `nil` when no calling code matches or the national number's length is impossible.
    public static func region(of e164: String) -> String? {
        guard let (_, national, entry) = split(e164) else { return nil }
        for prefixLength in stride(from: min(7, national.utf8.count), through: 1, by: -1) {
            if let region = entry.prefixes[String(national.prefix(prefixLength))] { return region }
        }
        return entry.main
    }

    /// Whether `e164` is in a premium-rate range (libphonenumber's, e.g. +44 9…, +1 900…, +979…): a number that costs
    /// the sender more than an SMS should, the toll fraud SMS pumping lives on. `false` for a number no region has.
    public static func isPremiumRate(_ e164: String) -> Bool {
        guard let (code, national, _) = split(e164), let region = region(of: e164) else { return false }
        let key = region == nonGeographic ? "+\(code)" : region
        // Compiled per call: it runs once per SMS, which costs far more, and Regex values cannot be shared across tasks.
        guard let source = premiumRatePatterns[key], let pattern = try? Regex(source) else { return false }
        return (try? pattern.wholeMatch(in: national)) != nil
    }

    /// The calling code, the national number and the code's entry; `nil` when no calling code matches or the
    /// national number's length is impossible.
    private static func split(_ e164: String) -> (code: Int, national: String, entry: CallingCode)? {
        let digits = Array(e164.utf8.dropFirst())
        // Calling codes are 1 to 3 digits and none is the start of another.
        for codeLength in 1...3 where digits.count > codeLength {
            guard let code = Int(String(decoding: digits[..<codeLength], as: UTF8.self)), let entry = callingCodes[code] else {
                continue
            }
            let national = String(decoding: digits[codeLength...], as: UTF8.self)
            guard entry.lengths.contains(national.utf8.count) else { return nil }
            return (code, national, entry)
        }
        return nil
    }
}

/// The operator's SMS region policy, Identity Platform's `smsRegionConfig`: every region but a deny list
/// (`allowByDefault.disallowedRegions`), or an allow list only (`allowlistOnly.allowedRegions`). Regions are ISO
/// 3166-1 alpha-2 codes. Codes are sent only to numbers whose region it allows (``PhoneRegions``).
public enum SMSRegionPolicy: Sendable, Equatable, Codable {
    case allowByDefault(disallowedRegions: Set<String>)
    case allowlistOnly(allowedRegions: Set<String>)

    /// Every region.
    public static let allowAll = SMSRegionPolicy.allowByDefault(disallowedRegions: [])

    public func allows(region: String) -> Bool {
        switch self {
        case .allowByDefault(let disallowed): !disallowed.contains(region)
        case .allowlistOnly(let allowed): allowed.contains(region)
        }
    }

    /// A policy's regions as given: two capital letters each, at most 300. Throws `INVALID_CONFIG` naming the
    /// first that is not.
    public static func checked(_ policy: SMSRegionPolicy) throws -> SMSRegionPolicy {
        let regions: Set<String>
        switch policy {
        case .allowByDefault(let disallowed): regions = disallowed
        case .allowlistOnly(let allowed): regions = allowed
        }
        guard regions.count <= 300 else { throw HearthError(.invalidConfig, detail: "Too many regions in smsRegionConfig.") }
        for region in regions.sorted() where !(region.utf8.count == 2 && region.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }) {
            throw HearthError(.invalidConfig, detail: "Invalid region code in smsRegionConfig: \(String(region.prefix(8))).")
        }
        return policy
    }
}
