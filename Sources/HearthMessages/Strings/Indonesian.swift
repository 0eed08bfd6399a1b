import HearthCore

/// Indonesian (Bahasa Indonesia), in the polite Anda form.
struct Indonesian: EmailActionStrings {
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText {
        switch kind {
        case .passwordReset:
            MailText(
                subject: "Setel ulang sandi Anda untuk \(appName)",
                heading: "Setel ulang sandi Anda",
                paragraphs: [
                    "Seseorang meminta untuk menyetel ulang sandi akun \(appName) untuk \(email).",
                    "Untuk memilih sandi baru, gunakan tombol di bawah ini. Tautan ini hanya dapat digunakan sekali dan akan kedaluwarsa setelah beberapa saat.",
                ],
                button: "Setel ulang sandi",
                footer: "Jika Anda tidak meminta penyetelan ulang sandi, abaikan email ini; sandi Anda tidak akan berubah.")
        case .verifyEmail:
            MailText(
                subject: "Verifikasi alamat email Anda untuk \(appName)",
                heading: "Verifikasi alamat email Anda",
                paragraphs: ["Konfirmasikan bahwa \(email) adalah alamat email Anda untuk \(appName)."],
                button: "Verifikasi alamat email",
                footer: "Jika Anda tidak memintanya, abaikan email ini.")
        case .emailSignIn:
            MailText(
                subject: "Masuk ke \(appName)",
                heading: "Masuk ke \(appName)",
                paragraphs: [
                    "Seseorang meminta untuk masuk ke \(appName) sebagai \(email). Gunakan tombol di bawah ini untuk masuk. Tautan ini hanya dapat digunakan sekali dan akan kedaluwarsa setelah beberapa saat."
                ],
                button: "Masuk",
                footer: "Jika Anda tidak meminta untuk masuk, abaikan email ini.")
        case .verifyAndChangeEmail:
            MailText(
                subject: "Konfirmasi alamat email baru Anda untuk \(appName)",
                heading: "Konfirmasi alamat email baru Anda",
                paragraphs: [
                    "Seseorang meminta untuk menggunakan \(email) sebagai alamat email masuk untuk akun \(appName).",
                    "Untuk mengonfirmasi perubahan ini, gunakan tombol di bawah ini. Sampai Anda mengonfirmasinya, akun tetap menggunakan alamatnya yang sekarang.",
                ],
                button: "Konfirmasi alamat baru",
                footer: "Jika Anda tidak memintanya, abaikan email ini; tidak ada yang akan berubah.")
        case .recoverEmail:
            MailText(
                subject: "Alamat email masuk Anda untuk \(appName) telah diubah",
                heading: "Alamat email masuk Anda telah diubah",
                paragraphs: [
                    newEmail.map { "Alamat email masuk akun \(appName) Anda telah diubah dari \(email) menjadi \($0)." }
                        ?? "Alamat email masuk akun \(appName) Anda telah diubah dari \(email) menjadi alamat lain.",
                    "Jika Anda tidak melakukan perubahan ini, gunakan tombol di bawah ini untuk memulihkan alamat Anda sebelumnya, \(email).",
                ],
                button: "Pulihkan alamat email saya",
                footer: "Jika Anda sendiri yang melakukan perubahan ini, abaikan email ini.")
        case .revertSecondFactorAddition:
            MailText(
                subject: "Faktor kedua ditambahkan ke akun \(appName) Anda",
                heading: "Langkah masuk kedua ditambahkan",
                paragraphs: [
                    "\(newEmail ?? "") ditambahkan sebagai langkah masuk kedua untuk akun \(appName) milik \(email).",
                    "Jika bukan Anda yang menambahkannya, gunakan tombol di bawah untuk menghapusnya dan mengakhiri semua sesi yang sedang masuk.",
                ],
                button: "Hapus faktor kedua ini",
                footer: "Jika Anda sendiri yang menambahkannya, abaikan email ini.")
        }
    }

    func verificationSMS(code: String, appName: String) -> String { "\(code) adalah kode verifikasi Anda untuk \(appName)." }
    var linkHint: String { "Jika tombol tidak berfungsi, salin tautan ini ke browser Anda:" }

    func resetPasswordForm(email: String) -> PageText {
        PageText(heading: "Setel ulang sandi Anda", paragraphs: ["Pilih sandi baru untuk \(email)."], button: "Simpan sandi")
    }

    var newPasswordLabel: String { "Sandi baru" }
    var confirmPasswordLabel: String { "Konfirmasi sandi baru" }

    func resetFormError(_ error: ActionPage.ResetFormError) -> String {
        switch error {
        case .passwordsDiffer: "Kedua sandi tidak cocok."
        case .tooShort(let minimumLength): "Sandi harus terdiri dari minimal \(minimumLength) karakter."
        case .requirementsNotMet: "Sandi ini tidak memenuhi persyaratan:"
        case .failed: "Sandi tidak dapat diubah. Silakan coba lagi."
        }
    }

    func resetPasswordDone() -> PageText {
        PageText(heading: "Sandi Anda telah diubah", paragraphs: ["Sekarang Anda dapat masuk dengan sandi baru Anda."])
    }

    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText {
        switch kind {
        case .passwordReset:
            PageText(heading: "Setel ulang sandi Anda", paragraphs: ["Lanjutkan untuk memilih sandi baru untuk \(email)."], button: "Lanjutkan")
        case .verifyEmail:
            PageText(
                heading: "Verifikasi alamat email Anda", paragraphs: ["Konfirmasikan bahwa \(email) adalah alamat email Anda untuk \(appName)."],
                button: "Verifikasi alamat email")
        case .emailSignIn:
            PageText(heading: "Masuk ke \(appName)", paragraphs: ["Lanjutkan untuk masuk sebagai \(email)."], button: "Masuk")
        case .verifyAndChangeEmail:
            PageText(
                heading: "Ubah alamat email Anda",
                paragraphs: ["Konfirmasikan bahwa Anda ingin menggunakan \(newEmail ?? email) sebagai alamat email masuk akun \(appName) Anda."],
                button: "Ubah alamat email")
        case .recoverEmail:
            PageText(
                heading: "Pulihkan alamat email Anda",
                paragraphs: [
                    newEmail.map {
                        "Alamat email masuk Anda telah diubah menjadi \($0). Pulihkan \(email) sebagai alamat masuk akun \(appName) Anda."
                    }
                        ?? "Pulihkan \(email) sebagai alamat email masuk akun \(appName) Anda."
                ],
                button: "Pulihkan alamat email")
        case .revertSecondFactorAddition:
            PageText(
                heading: "Hapus faktor kedua",
                paragraphs: ["Hapus \(newEmail ?? "") dari langkah masuk kedua akun \(appName) Anda. Semua sesi yang sedang masuk akan berakhir."],
                button: "Hapus faktor kedua")
        }
    }

    func emailVerified(appName: String) -> PageText {
        PageText(
            heading: "Alamat email Anda telah diverifikasi", paragraphs: ["Sekarang Anda dapat menggunakan akun \(appName) Anda dengan alamat ini."])
    }

    func emailChanged(newEmail: String) -> PageText {
        PageText(heading: "Alamat email Anda telah diubah", paragraphs: ["Mulai sekarang, masuk dengan \(newEmail)."])
    }

    func emailRecovered(email: String) -> PageText {
        PageText(heading: "Alamat email Anda telah dipulihkan", paragraphs: ["Alamat email masuk Anda kembali menjadi \(email)."])
    }

    func secondFactorReverted(appName: String) -> PageText {
        PageText(
            heading: "Faktor kedua telah dihapus",
            paragraphs: ["Masuk lagi. Jika orang lain yang menambahkannya, mereka mungkin mengetahui sandi Anda: setel ulang sandi agar aman."])
    }

    var resetOffer: String {
        "Jika orang lain yang mengubah alamat Anda, mungkin ia mengetahui sandi Anda. Setel ulang sandi Anda agar tetap aman."
    }
    var resetOfferButton: String { "Kirim email penyetelan ulang sandi" }

    func resetMailSent(email: String) -> PageText {
        PageText(heading: "Periksa email Anda", paragraphs: ["Kami telah mengirimkan tautan untuk menyetel ulang sandi Anda ke \(email)."])
    }

    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText {
        switch reason {
        case .expired:
            PageText(
                heading: "Tautan ini sudah kedaluwarsa",
                paragraphs: ["Tautan dalam email ini hanya berlaku untuk waktu singkat. Minta tautan baru di \(appName)."])
        case .invalid:
            PageText(
                heading: "Tautan ini tidak valid",
                paragraphs: ["Tautan mungkin telah diubah atau hanya tersalin sebagian. Minta tautan baru di \(appName)."])
        case .used:
            PageText(
                heading: "Tautan ini sudah digunakan",
                paragraphs: ["Setiap tautan hanya dapat digunakan sekali. Jika masih perlu, minta tautan baru di \(appName)."])
        case .unknownMode:
            PageText(
                heading: "Tautan ini tidak didukung",
                paragraphs: ["Halaman ini tidak dapat menangani jenis tautan ini. Minta tautan baru di \(appName)."])
        case .missingCode:
            PageText(
                heading: "Tautan ini tidak lengkap",
                paragraphs: ["Kode pada tautan ini tidak ada. Buka kembali tautan dari email, atau minta tautan baru di \(appName)."])
        }
    }

    var continueLabel: String { "Lanjutkan" }
}
