import HearthMail
import Testing

@Suite struct MailMessageTests {
    @Test func addressKeepsItsName() {
        #expect(MailAddress("a@example.com", name: "A").name == "A")
    }
}
