/// Small icons for the sign-in providers in the users' table and on a user's page, drawn here (monograms and plain
/// shapes, no provider's logo), inline SVG so that the strict Content-Security-Policy needs no image source. Each sits
/// next to the provider's id, which is its text: the icon itself is hidden from screen readers and has a `<title>`
/// (the provider's name) for a pointer's tooltip.
enum ProviderIcon {
    /// The icon and the provider's id, as the pages show a provider.
    static func labelled(_ providerID: String, limit: Int = 40) -> String {
        "<span class=\"provider\">\(svg(providerID))\(ConsoleHTML.value(providerID, limit: limit))</span>"
    }

    /// The 16-pixel icon of `providerID`.
    static func svg(_ providerID: String) -> String {
        let (name, drawing) = shape(providerID)
        return """
            <svg class="provider-icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">\
            <title>\(ConsoleHTML.escape(name))</title>\(drawing)</svg>
            """
    }

    /// The provider's name and its drawing.
    static func shape(_ providerID: String) -> (String, String) {
        switch providerID {
        case "password": return ("Password", key)
        case "phone": return ("Phone", phone)
        case "emailLink": return ("E-mail link", envelope)
        case "anonymous": return ("Anonymous", person)
        case "google.com": return ("Google", monogram("G", "#3b6fd8"))
        case "apple.com": return ("Apple", monogram("A", "#3c3c3c"))
        case "microsoft.com": return ("Microsoft", monogram("M", "#2f7d4f"))
        case "facebook.com": return ("Facebook", monogram("f", "#3558a8"))
        case "github.com": return ("GitHub", monogram("GH", "#4a3f6b", size: 6.5))
        case "twitter.com": return ("Twitter / X", monogram("X", "#1d1d1f"))
        case "yahoo.com": return ("Yahoo", monogram("Y", "#6a2bc2"))
        default:
            if providerID.hasPrefix("saml.") { return ("SAML", monogram("S", "#8a4b0f", square: true)) }
            if providerID.hasPrefix("oidc.") { return ("OpenID Connect", monogram("O", "#8a4b0f", square: true)) }
            return ("Other provider", monogram("?", "#6b645c"))
        }
    }

    /// A letter or two, white on a coloured disc (a rounded square for the configured SAML and OIDC providers).
    static func monogram(_ letters: String, _ colour: String, size: Double = 9.5, square: Bool = false) -> String {
        let ground =
            square ? "<rect width=\"16\" height=\"16\" rx=\"3\" fill=\"\(colour)\"/>" : "<circle cx=\"8\" cy=\"8\" r=\"8\" fill=\"\(colour)\"/>"
        return ground
            + "<text x=\"8\" y=\"8\" dy=\"0.35em\" text-anchor=\"middle\" font-family=\"system-ui, sans-serif\" font-size=\"\(size)\" font-weight=\"700\" fill=\"#fff\">\(letters)</text>"
    }

    static let key =
        "<circle cx=\"5\" cy=\"8\" r=\"3.2\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\"/><path d=\"M8 8h7M12.5 8v3M15 8v2.5\" stroke=\"currentColor\" stroke-width=\"1.8\" fill=\"none\"/>"
    static let phone =
        "<rect x=\"4\" y=\"1\" width=\"8\" height=\"14\" rx=\"1.6\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\"/><circle cx=\"8\" cy=\"12.3\" r=\"0.9\" fill=\"currentColor\"/>"
    static let envelope =
        "<rect x=\"1\" y=\"3\" width=\"14\" height=\"10\" rx=\"1.5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\"/><path d=\"M1.5 4l6.5 5 6.5-5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\"/>"
    static let person =
        "<circle cx=\"8\" cy=\"5\" r=\"3\" fill=\"currentColor\"/><path d=\"M2 15c0-3.5 2.7-5.5 6-5.5s6 2 6 5.5z\" fill=\"currentColor\"/>"
}
