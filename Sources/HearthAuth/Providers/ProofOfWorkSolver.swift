import Foundation

/// Solves the proof of work a Hearth server may ask for before it sends an SMS code (`hearthProofOfWork` in
/// `recaptchaParams`): the first `nonce` from 0 such that `SHA-256("hearth-pow.v1.<project>.<phone>.<t>.<nonce>")`
/// starts with `difficulty` zero bits. About 2^difficulty hashes: a fraction of a second at the server's default of 20.
enum ProofOfWorkSolver {
    static func solve(projectID: String, phoneNumber: String, time: Int, difficulty: Int) -> String {
        let prefix = Array("hearth-pow.v1.\(projectID).\(phoneNumber).\(time).".utf8)
        var nonce = 0
        while leadingZeroBits(PortableSHA256.hash(prefix + Array(String(nonce).utf8))) < difficulty {
            nonce += 1
        }
        return "hearth-pow.v1.\(time).\(nonce)"
    }

    static func leadingZeroBits(_ digest: [UInt8]) -> Int {
        var bits = 0
        for byte in digest {
            guard byte == 0 else { return bits + byte.leadingZeroBitCount }
            bits += 8
        }
        return bits
    }
}
