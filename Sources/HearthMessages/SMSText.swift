import HearthCore

/// The text of phone sign-in's SMS, in the request's language, with the lines that let a phone fill the code in.
public struct SMSText: Sendable, Equatable {
    /// The app's name as the message gives it (`sms.appName`, else `email.appName`, else the project id).
    public var appName: String
    /// `sms.androidAppHash`: the 11-character hash Android's SMS Retriever API matches an app by; it ends the message.
    public var androidAppHash: String?
    /// `sms.webOTPDomain`: the host of the web app, for the WebOTP API's last line `@host #code`.
    public var webOTPDomain: String?

    /// The longest app name kept: a longer one would split a one-part SMS (70 characters in Unicode) into two.
    public static let maximumAppNameLength = 30

    public init(appName: String, androidAppHash: String? = nil, webOTPDomain: String? = nil) {
        self.appName = appName
        self.androidAppHash = androidAppHash
        self.webOTPDomain = webOTPDomain
    }

    /// The message for `code`, and the language it is written in.
    public func verification(code: String, languageCode: String?) -> (text: String, languageCode: String) {
        let language = EmailActionLanguage(languageCode: languageCode)
        let name = String(DisplayText.singleLine(appName).prefix(Self.maximumAppNameLength))
        var text = language.strings.verificationSMS(code: code, appName: name)
        // SMS Retriever wants the hash at the very end; WebOTP wants its line last. The configuration allows one.
        if let androidAppHash { text += "\n\n\(androidAppHash)" }
        if let webOTPDomain { text += "\n\n@\(webOTPDomain) #\(code)" }
        return (text, language.code)
    }

    /// Whether `hash` has the form of an SMS Retriever app hash: 11 characters of base64 (`+`, `/`).
    public static func isAppHash(_ hash: String) -> Bool {
        hash.count == 11
            && hash.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "/") }
    }
}
