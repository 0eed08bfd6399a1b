import Foundation
import HearthWire
import Testing

/// Reading an export file a user at a time (the console's import and `hearth users import`): the users of a file that
/// is read through, and the refusals of one that is not, each with its sentence.
@Suite("Export files read a user at a time")
struct AuthExportReaderTests {
    /// Every user of `text`, or the sentence of the first refusal (with how many users were read before it).
    static func read(_ text: String, _ format: AuthExportFile.Format) -> (users: [ExportedUser], refusal: String?) {
        read(Data(text.utf8), format)
    }

    static func read(_ data: Data, _ format: AuthExportFile.Format) -> (users: [ExportedUser], refusal: String?) {
        var users: [ExportedUser] = []
        do {
            var reader = try AuthExportFile.UserReader(data, format: format)
            while let user = try reader.next() { users.append(user) }
            #expect(reader.count == users.count)
            return (users, nil)
        } catch {
            return (users, error.description)
        }
    }

    static func notExport(_ what: String) -> String { "The file is not a Firebase CLI JSON export: \(what)." }

    @Test("JSON: other members before and after the users (brackets in strings, escapes in names) are passed over, a byte-order mark too")
    func jsonMembers() throws {
        let text = """
            \u{FEFF}{"kind": "identitytoolkit#DownloadAccountResponse", "note": "not ] a } bracket \\" [",
             "us\\u0065rs" : [ {"localId":"a","displayName":"x ] } [ {","providerUserInfo":[{"providerId":"github.com","rawId":"1"}]},
               {"localId":"b"} ] ,"nextPageToken": {"deep": [[1, 2.5e3, true, null, {"a": "]"}]]}}
            """
        let (users, refusal) = Self.read(text, .json)
        #expect(refusal == nil)
        #expect(users.map(\.localId) == ["a", "b"])
        #expect(users.first?.displayName == "x ] } [ {" && users.first?.providerUserInfo?.first?.rawId == "1")
        // The whole file at once reads the same users.
        #expect(try AuthExportFile.read(Data(text.utf8), format: .json).users == users)
        #expect(Self.read(#"{"users":[]}"#, .json).refusal == nil)
    }

    @Test("JSON refusals: each its sentence, the users before it read, and the same refusal again on the next read")
    func jsonRefusals() throws {
        let cases: [(text: String, read: Int, refusal: String)] = [
            (#"{"users": ["#, 0, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"},]}"#, 1, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"}] "x": 1}"#, 1, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"}]} trailing"#, 1, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"}], "x": tru}"#, 1, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"}], "x": "never closed}"#, 1, Self.notExport("it is not JSON")),
            (#"{"users": [{"localId":"a"}], "users": []}"#, 1, Self.notExport("users is given twice")),
            (#"{"other": []}"#, 0, Self.notExport("users is missing")),
            (#"{}"#, 0, Self.notExport("users is missing")),
            (#"[{"localId":"a"}]"#, 0, Self.notExport("its top level is not an object")),
            (#"{"users": {"localId":"a"}}"#, 0, Self.notExport("users is not what it should be")),
            (#"{"users": [{"localId":"a"}, 7]}"#, 1, Self.notExport("users.1 is not what it should be")),
            (
                #"{"users": [{"localId":"a"}, {"localId":"b","emailVerified":"yes"}]}"#, 1,
                Self.notExport("users.1.emailVerified is not what it should be")
            ),
            (
                #"{"users": [{"localId":"a","providerUserInfo":[{"providerId":"x"}]}]}"#, 0,
                Self.notExport("users.0.providerUserInfo.0.rawId is missing")
            ),
            ("", 0, Self.notExport("it is not JSON")),
            // Deeper than any decoder recurses: the scanner counts, and the decoder refuses the element.
            (
                #"{"users": ["# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]}", 0,
                Self.notExport("it is not JSON")
            ),
            // The same depth in a member passed over.
            (
                #"{"users": [], "x": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}", 0,
                Self.notExport("it is not JSON")
            ),
            ("{\"users\":[]}\u{0}", 0, "The file holds a NUL byte (at byte 13): it is not a text export."),
        ]
        for (text, count, refusal) in cases {
            let (users, got) = Self.read(text, .json)
            #expect(got == refusal, "\(text.prefix(80))")
            #expect(users.count == count, "\(text.prefix(80))")
        }
        var reader = try AuthExportFile.UserReader(Data(#"{"users": [{"localId":"a"}, 7]}"#.utf8), format: .json)
        #expect(try reader.next()?.localId == "a")
        for _ in 0..<2 {
            #expect(throws: AuthExportFile.ReadError(Self.notExport("users.1 is not what it should be"))) { try reader.next() }
        }
    }

    @Test("bytes that are not UTF-8 are refused wherever they are; a character across the reader's 1 MiB pieces is not")
    func utf8() throws {
        #expect(
            Self.read(Data(#"{"users":[{"localId":"a"#.utf8) + Data([0xC3, 0x28]) + Data(#""}]}"#.utf8), .json).refusal
                == "The file is not UTF-8 text.")
        #expect(Self.read(Data("u1,".utf8) + Data([0xFF]) + Data("\n".utf8), .csv).refusal == "The file is not UTF-8 text.")
        // A name of 3-byte characters (Bengali KA) over the first piece's end, which falls inside one of them.
        let prefix = #"{"users":[{"localId":"ab","displayName":""#
        let name = String(repeating: "\u{0995}", count: 400_000)
        try #require((1 << 20 - prefix.utf8.count) % 3 != 0)
        let (users, refusal) = Self.read(prefix + name + #""}]}"#, .json)
        #expect(refusal == nil && users.first?.displayName == name)
    }

    @Test("CSV read a row at a time: the same users as the whole file, lone CR and CRLF endings, a too long line named")
    func csvRows() throws {
        let text =
            "\u{FEFF}u1,a@example.com,true,aGFzaA==,c2FsdA==,\"Doe, Jane\nsecond line\",,g-1,,,,,,,,,,,,,,,,1500000000000,,,false,\"{\"\"a\"\":1}\",\r\n"
            + "\r\n" + "u2,,false\r" + "u3\n" + "u4"
        let (users, refusal) = Self.read(text, .csv)
        #expect(refusal == nil)
        #expect(users.map(\.localId) == ["u1", "u2", "u3", "u4"])
        #expect(users.first?.displayName == "Doe, Jane\nsecond line" && users.first?.customAttributes == #"{"a":1}"#)
        #expect(try AuthExportFile.csv(String(text.dropFirst())).users == users)

        let long = "u1,a@example.com\n" + "u2," + String(repeating: "a", count: 70_000) + "\n"
        let (before, tooLong) = Self.read(long, .csv)
        #expect(before.map(\.localId) == ["u1"] && tooLong == "Line 2 is longer than 64 KiB: this is not a Firebase CLI CSV export.")
        #expect(Self.read("u1,,maybe\n", .csv).refusal == "The file is not a Firebase CLI CSV export: line 1: column 3 is neither true nor false.")
        #expect(
            Self.read("u1,\"x\ny\",true\nu2,\"open", .csv).refusal == "The file is not a Firebase CLI CSV export: line 3: a quoted field never ends.")
    }

    @Test("a file of 100,000 users is read through a user at a time")
    func manyUsers() throws {
        var text = #"{"users":["#
        for index in 0..<100_000 {
            text += (index == 0 ? "" : ",") + #"{"localId":"u\#(index)","email":"u\#(index)@example.com","emailVerified":true}"#
        }
        text += "]}"
        var reader = try AuthExportFile.UserReader(Data(text.utf8), format: .json)
        var last: ExportedUser?
        while let user = try reader.next() { last = user }
        #expect(reader.count == 100_000 && last?.localId == "u99999")
    }
}
