import HTTPTypes
import HearthMessages
import Testing

@testable import HearthServer

@Suite struct ActionPageHeadersTests {
    @Test("the action pages' headers forbid script, framing, caching and referrers")
    func headers() {
        let headers = ActionPage.headers
        #expect(headers[.contentType] == "text/html; charset=utf-8")
        #expect(headers[.cacheControl] == "no-store")
        #expect(headers[.contentSecurityPolicy] == ActionPage.contentSecurityPolicy)
        #expect(headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        #expect(headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        #expect(headers[.xContentTypeOptions] == "nosniff")
    }
}
