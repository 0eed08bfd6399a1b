import HearthCore
import HearthWire

extension AccountImport.Batch {
    /// The batch of an `accounts:batchCreate` request.
    public init(_ input: BatchCreateRequest) {
        self.init(entries: (input.users ?? []).map(AccountImport.Entry.init))
        hashAlgorithm = input.hashAlgorithm
        signerKey = input.signerKey
        saltSeparator = input.saltSeparator
        func number(_ value: WireInt32?) -> Int? { value.map { Int($0.value) } }
        rounds = number(input.rounds)
        memoryCost = number(input.memoryCost)
        cpuMemCost = number(input.cpuMemCost)
        parallelization = number(input.parallelization)
        blockSize = number(input.blockSize)
        dkLen = number(input.dkLen)
        passwordHashOrder = input.passwordHashOrder.flatMap { PasswordHashImport.Order(rawValue: $0.name) }
        sanityCheck = input.sanityCheck == true
        allowOverwrite = input.allowOverwrite == true
    }
}

extension AccountImport.Entry {
    public init(_ info: UserInfo) {
        self.init(uid: info.localId)
        email = info.email
        displayName = info.displayName
        photoURL = info.photoUrl
        phoneNumber = info.phoneNumber
        customAttributes = info.customAttributes
        emailVerified = info.emailVerified
        disabled = info.disabled
        passwordHash = info.passwordHash
        salt = info.salt
        rawPassword = info.rawPassword
        createdAt = info.createdAt?.value
        lastLoginAt = info.lastLoginAt?.value
        links = (info.providerUserInfo ?? []).map {
            Link(
                providerID: $0.providerId, rawID: $0.rawId, email: $0.email, displayName: $0.displayName, photoURL: $0.photoUrl,
                phoneNumber: $0.phoneNumber, screenName: $0.screenName)
        }
        secondFactors = (info.mfaInfo ?? []).map(AdministeredSecondFactors.Entry.init)
    }
}

extension AdministeredSecondFactors.Entry {
    /// A factor as an administrator's `mfaInfo` or `mfa.enrollments` names it; the number in `phoneInfo` or
    /// `unobfuscatedPhoneInfo`.
    public init(_ wire: MFAEnrollment) {
        let number = wire.phoneInfo ?? wire.unobfuscatedPhoneInfo
        self.init(
            enrollmentID: wire.mfaEnrollmentId, displayName: wire.displayName, enrolledAt: wire.enrolledAt, phoneNumber: number,
            isTOTP: number == nil && wire.totpInfo != nil)
    }
}
