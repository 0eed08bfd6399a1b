import HearthCore

/// Spanish (español), addressing the reader with tú, as most apps do.
struct Spanish: EmailActionStrings {
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText {
        switch kind {
        case .passwordReset:
            MailText(
                subject: "Restablece tu contraseña de \(appName)",
                heading: "Restablece tu contraseña",
                paragraphs: [
                    "Alguien ha solicitado restablecer la contraseña de la cuenta de \(appName) asociada a \(email).",
                    "Para elegir una contraseña nueva, usa el botón de abajo. El enlace solo funciona una vez y caduca al cabo de poco tiempo.",
                ],
                button: "Restablecer contraseña",
                footer: "Si no has solicitado restablecer tu contraseña, puedes ignorar este correo; tu contraseña no cambiará.")
        case .verifyEmail:
            MailText(
                subject: "Verifica tu dirección de correo electrónico para \(appName)",
                heading: "Verifica tu dirección de correo electrónico",
                paragraphs: ["Confirma que \(email) es tu dirección de correo electrónico para \(appName)."],
                button: "Verificar dirección de correo",
                footer: "Si no lo has solicitado, puedes ignorar este correo.")
        case .emailSignIn:
            MailText(
                subject: "Inicia sesión en \(appName)",
                heading: "Inicia sesión en \(appName)",
                paragraphs: [
                    "Alguien ha solicitado iniciar sesión en \(appName) como \(email). Usa el botón de abajo para iniciar sesión. El enlace solo funciona una vez y caduca al cabo de poco tiempo."
                ],
                button: "Iniciar sesión",
                footer: "Si no has solicitado iniciar sesión, puedes ignorar este correo.")
        case .verifyAndChangeEmail:
            MailText(
                subject: "Confirma tu nueva dirección de correo para \(appName)",
                heading: "Confirma tu nueva dirección de correo",
                paragraphs: [
                    "Alguien ha solicitado usar \(email) como dirección de correo de inicio de sesión de una cuenta de \(appName).",
                    "Para confirmar el cambio, usa el botón de abajo. Hasta que lo confirmes, la cuenta conserva su dirección actual.",
                ],
                button: "Confirmar nueva dirección",
                footer: "Si no lo has solicitado, puedes ignorar este correo; no cambiará nada.")
        case .recoverEmail:
            MailText(
                subject: "Se ha cambiado tu dirección de correo de inicio de sesión en \(appName)",
                heading: "Se ha cambiado tu dirección de correo de inicio de sesión",
                paragraphs: [
                    newEmail.map { "La dirección de correo de inicio de sesión de tu cuenta de \(appName) se ha cambiado de \(email) a \($0)." }
                        ?? "La dirección de correo de inicio de sesión de tu cuenta de \(appName) se ha cambiado de \(email) a otra dirección.",
                    "Si no has hecho este cambio, usa el botón de abajo para restaurar tu dirección anterior, \(email).",
                ],
                button: "Restaurar mi dirección de correo",
                footer: "Si has hecho tú este cambio, puedes ignorar este correo.")
        case .revertSecondFactorAddition:
            MailText(
                subject: "Se añadió un segundo factor a tu cuenta de \(appName)",
                heading: "Se añadió un segundo paso de inicio de sesión",
                paragraphs: [
                    "Se añadió \(newEmail ?? "") como segundo paso de inicio de sesión de la cuenta de \(appName) de \(email).",
                    "Si no lo añadiste tú, usa el botón de abajo para quitarlo y cerrar todas las sesiones.",
                ],
                button: "Quitar este segundo factor",
                footer: "Si lo añadiste tú, puedes ignorar este correo.")
        }
    }

    func verificationSMS(code: String, appName: String) -> String { "\(code) es tu código de verificación para \(appName)." }
    var linkHint: String { "Si el botón no funciona, copia este enlace en tu navegador:" }

    func resetPasswordForm(email: String) -> PageText {
        PageText(heading: "Restablece tu contraseña", paragraphs: ["Elige una contraseña nueva para \(email)."], button: "Guardar contraseña")
    }

    var newPasswordLabel: String { "Contraseña nueva" }
    var confirmPasswordLabel: String { "Confirma la contraseña nueva" }

    func resetFormError(_ error: ActionPage.ResetFormError) -> String {
        switch error {
        case .passwordsDiffer: "Las dos contraseñas no coinciden."
        case .tooShort(let minimumLength): "La contraseña debe tener al menos \(minimumLength) caracteres."
        case .requirementsNotMet: "Esta contraseña no cumple los requisitos:"
        case .failed: "No se ha podido cambiar la contraseña. Inténtalo de nuevo."
        }
    }

    func resetPasswordDone() -> PageText {
        PageText(heading: "Se ha cambiado tu contraseña", paragraphs: ["Ya puedes iniciar sesión con tu contraseña nueva."])
    }

    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText {
        switch kind {
        case .passwordReset:
            PageText(
                heading: "Restablece tu contraseña", paragraphs: ["Continúa para elegir una contraseña nueva para \(email)."], button: "Continuar")
        case .verifyEmail:
            PageText(
                heading: "Verifica tu dirección de correo electrónico",
                paragraphs: ["Confirma que \(email) es tu dirección de correo electrónico para \(appName)."],
                button: "Verificar dirección de correo")
        case .emailSignIn:
            PageText(heading: "Inicia sesión en \(appName)", paragraphs: ["Continúa para iniciar sesión como \(email)."], button: "Iniciar sesión")
        case .verifyAndChangeEmail:
            PageText(
                heading: "Cambia tu dirección de correo",
                paragraphs: [
                    "Confirma que quieres usar \(newEmail ?? email) como dirección de correo de inicio de sesión de tu cuenta de \(appName)."
                ],
                button: "Cambiar dirección de correo")
        case .recoverEmail:
            PageText(
                heading: "Restaura tu dirección de correo",
                paragraphs: [
                    newEmail.map {
                        "Tu dirección de correo de inicio de sesión se cambió a \($0). Restaura \(email) como dirección de inicio de sesión de tu cuenta de \(appName)."
                    } ?? "Restaura \(email) como dirección de correo de inicio de sesión de tu cuenta de \(appName)."
                ],
                button: "Restaurar dirección de correo")
        case .revertSecondFactorAddition:
            PageText(
                heading: "Quitar el segundo factor",
                paragraphs: [
                    "Quita \(newEmail ?? "") de los segundos pasos de inicio de sesión de tu cuenta de \(appName). Se cerrarán todas las sesiones."
                ],
                button: "Quitar segundo factor")
        }
    }

    func emailVerified(appName: String) -> PageText {
        PageText(heading: "Tu dirección de correo está verificada", paragraphs: ["Ya puedes usar tu cuenta de \(appName) con esta dirección."])
    }

    func emailChanged(newEmail: String) -> PageText {
        PageText(heading: "Se ha cambiado tu dirección de correo", paragraphs: ["A partir de ahora, inicia sesión con \(newEmail)."])
    }

    func emailRecovered(email: String) -> PageText {
        PageText(
            heading: "Se ha restaurado tu dirección de correo", paragraphs: ["Tu dirección de correo de inicio de sesión vuelve a ser \(email)."])
    }

    func secondFactorReverted(appName: String) -> PageText {
        PageText(
            heading: "Se quitó el segundo factor",
            paragraphs: ["Vuelve a iniciar sesión. Si otra persona lo añadió, puede que conozca tu contraseña: restablécela por seguridad."])
    }

    var resetOffer: String {
        "Si otra persona cambió tu dirección, es posible que conozca tu contraseña. Restablécela por seguridad."
    }
    var resetOfferButton: String { "Enviar correo para restablecer la contraseña" }

    func resetMailSent(email: String) -> PageText {
        PageText(heading: "Revisa tu correo", paragraphs: ["Hemos enviado a \(email) un enlace para restablecer tu contraseña."])
    }

    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText {
        switch reason {
        case .expired:
            PageText(
                heading: "Este enlace ha caducado",
                paragraphs: ["Los enlaces de estos correos solo funcionan durante poco tiempo. Solicita uno nuevo en \(appName)."])
        case .invalid:
            PageText(
                heading: "Este enlace no es válido",
                paragraphs: ["Puede que el enlace se haya modificado o copiado solo en parte. Solicita uno nuevo en \(appName)."])
        case .used:
            PageText(
                heading: "Este enlace ya se ha usado",
                paragraphs: ["Cada enlace funciona una sola vez. Si aún lo necesitas, solicita un enlace nuevo en \(appName)."])
        case .unknownMode:
            PageText(
                heading: "Este enlace no es compatible",
                paragraphs: ["Esta página no puede procesar este tipo de enlace. Solicita uno nuevo en \(appName)."])
        case .missingCode:
            PageText(
                heading: "Este enlace está incompleto",
                paragraphs: ["Al enlace le falta su código. Vuelve a abrirlo desde el correo o solicita uno nuevo en \(appName)."])
        }
    }

    var continueLabel: String { "Continuar" }
}
