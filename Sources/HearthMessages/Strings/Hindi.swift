import HearthCore

/// Hindi (हिन्दी), in the polite आप form.
struct Hindi: EmailActionStrings {
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText {
        switch kind {
        case .passwordReset:
            MailText(
                subject: "\(appName) के लिए अपना पासवर्ड रीसेट करें",
                heading: "अपना पासवर्ड रीसेट करें",
                paragraphs: [
                    "किसी ने \(email) के \(appName) खाते का पासवर्ड रीसेट करने का अनुरोध किया है।",
                    "नया पासवर्ड चुनने के लिए नीचे दिए गए बटन का उपयोग करें। यह लिंक केवल एक बार काम करता है और कुछ समय बाद समाप्त हो जाता है।",
                ],
                button: "पासवर्ड रीसेट करें",
                footer: "अगर आपने पासवर्ड रीसेट करने का अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें; आपका पासवर्ड नहीं बदलेगा।")
        case .verifyEmail:
            MailText(
                subject: "\(appName) के लिए अपना ईमेल पता सत्यापित करें",
                heading: "अपना ईमेल पता सत्यापित करें",
                paragraphs: ["कृपया पुष्टि करें कि \(email) \(appName) के लिए आपका ईमेल पता है।"],
                button: "ईमेल पता सत्यापित करें",
                footer: "अगर आपने यह अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें।")
        case .emailSignIn:
            MailText(
                subject: "\(appName) में साइन इन करें",
                heading: "\(appName) में साइन इन करें",
                paragraphs: [
                    "किसी ने \(email) के रूप में \(appName) में साइन इन करने का अनुरोध किया है। साइन इन करने के लिए नीचे दिए गए बटन का उपयोग करें। यह लिंक केवल एक बार काम करता है और कुछ समय बाद समाप्त हो जाता है।"
                ],
                button: "साइन इन करें",
                footer: "अगर आपने साइन इन करने का अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें।")
        case .verifyAndChangeEmail:
            MailText(
                subject: "\(appName) के लिए अपने नए ईमेल पते की पुष्टि करें",
                heading: "अपने नए ईमेल पते की पुष्टि करें",
                paragraphs: [
                    "किसी ने \(appName) खाते के साइन-इन ईमेल पते के रूप में \(email) का उपयोग करने का अनुरोध किया है।",
                    "बदलाव की पुष्टि करने के लिए नीचे दिए गए बटन का उपयोग करें। जब तक आप पुष्टि नहीं करते, खाते का मौजूदा पता नहीं बदलेगा।",
                ],
                button: "नए पते की पुष्टि करें",
                footer: "अगर आपने यह अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें; कुछ भी नहीं बदलेगा।")
        case .recoverEmail:
            MailText(
                subject: "\(appName) के लिए आपका साइन-इन ईमेल पता बदल दिया गया है",
                heading: "आपका साइन-इन ईमेल पता बदल दिया गया है",
                paragraphs: [
                    newEmail.map { "आपके \(appName) खाते का साइन-इन ईमेल पता \(email) से बदलकर \($0) कर दिया गया है।" }
                        ?? "आपके \(appName) खाते का साइन-इन ईमेल पता \(email) से बदलकर किसी दूसरे पते पर कर दिया गया है।",
                    "अगर यह बदलाव आपने नहीं किया है, तो अपना पिछला पता, \(email), वापस लाने के लिए नीचे दिए गए बटन का उपयोग करें।",
                ],
                button: "मेरा ईमेल पता वापस लाएँ",
                footer: "अगर यह बदलाव आपने ही किया है, तो इस ईमेल को अनदेखा करें।")
        case .revertSecondFactorAddition:
            MailText(
                subject: "आपके \(appName) खाते में साइन-इन का दूसरा चरण जोड़ा गया",
                heading: "साइन-इन का दूसरा चरण जोड़ा गया",
                paragraphs: [
                    "\(email) के \(appName) खाते में साइन-इन के दूसरे चरण के रूप में \(newEmail ?? "") जोड़ा गया।",
                    "अगर आपने इसे नहीं जोड़ा, तो इसे हटाने और सभी साइन-इन सत्र समाप्त करने के लिए नीचे दिए बटन का उपयोग करें।",
                ],
                button: "यह दूसरा चरण हटाएँ",
                footer: "अगर आपने इसे खुद जोड़ा है, तो आप इस ईमेल को अनदेखा कर सकते हैं।")
        }
    }

    func verificationSMS(code: String, appName: String) -> String { "\(code) \(appName) के लिए आपका सत्यापन कोड है।" }
    var linkHint: String { "अगर बटन काम नहीं करता है, तो यह लिंक अपने ब्राउज़र में कॉपी करें:" }

    func resetPasswordForm(email: String) -> PageText {
        PageText(heading: "अपना पासवर्ड रीसेट करें", paragraphs: ["\(email) के लिए नया पासवर्ड चुनें।"], button: "पासवर्ड सहेजें")
    }

    var newPasswordLabel: String { "नया पासवर्ड" }
    var confirmPasswordLabel: String { "नए पासवर्ड की पुष्टि करें" }

    func resetFormError(_ error: ActionPage.ResetFormError) -> String {
        switch error {
        case .passwordsDiffer: "दोनों पासवर्ड मेल नहीं खाते।"
        case .tooShort(let minimumLength): "पासवर्ड में कम से कम \(minimumLength) वर्ण होने चाहिए।"
        case .requirementsNotMet: "यह पासवर्ड आवश्यकताओं को पूरा नहीं करता:"
        case .failed: "पासवर्ड नहीं बदला जा सका। कृपया फिर से कोशिश करें।"
        }
    }

    func resetPasswordDone() -> PageText {
        PageText(heading: "आपका पासवर्ड बदल दिया गया है", paragraphs: ["अब आप अपने नए पासवर्ड से साइन इन कर सकते हैं।"])
    }

    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText {
        switch kind {
        case .passwordReset:
            PageText(heading: "अपना पासवर्ड रीसेट करें", paragraphs: ["\(email) के लिए नया पासवर्ड चुनने हेतु आगे बढ़ें।"], button: "आगे बढ़ें")
        case .verifyEmail:
            PageText(
                heading: "अपना ईमेल पता सत्यापित करें", paragraphs: ["पुष्टि करें कि \(email) \(appName) के लिए आपका ईमेल पता है।"],
                button: "ईमेल पता सत्यापित करें")
        case .emailSignIn:
            PageText(heading: "\(appName) में साइन इन करें", paragraphs: ["\(email) के रूप में साइन इन करने के लिए आगे बढ़ें।"], button: "साइन इन करें")
        case .verifyAndChangeEmail:
            PageText(
                heading: "अपना ईमेल पता बदलें",
                paragraphs: ["पुष्टि करें कि आप अपने \(appName) खाते के साइन-इन ईमेल पते के रूप में \(newEmail ?? email) का उपयोग करना चाहते हैं।"],
                button: "ईमेल पता बदलें")
        case .recoverEmail:
            PageText(
                heading: "अपना ईमेल पता वापस लाएँ",
                paragraphs: [
                    newEmail.map { "आपका साइन-इन ईमेल पता बदलकर \($0) कर दिया गया था। \(email) को अपने \(appName) खाते के साइन-इन पते के रूप में वापस लाएँ।" }
                        ?? "\(email) को अपने \(appName) खाते के साइन-इन ईमेल पते के रूप में वापस लाएँ।"
                ],
                button: "ईमेल पता वापस लाएँ")
        case .revertSecondFactorAddition:
            PageText(
                heading: "दूसरा चरण हटाएँ",
                paragraphs: ["अपने \(appName) खाते के साइन-इन के दूसरे चरणों से \(newEmail ?? "") हटाएँ। सभी साइन-इन सत्र समाप्त हो जाएँगे।"],
                button: "दूसरा चरण हटाएँ")
        }
    }

    func emailVerified(appName: String) -> PageText {
        PageText(heading: "आपका ईमेल पता सत्यापित हो गया है", paragraphs: ["अब आप इस पते के साथ अपने \(appName) खाते का उपयोग कर सकते हैं।"])
    }

    func emailChanged(newEmail: String) -> PageText {
        PageText(heading: "आपका ईमेल पता बदल दिया गया है", paragraphs: ["अब से \(newEmail) से साइन इन करें।"])
    }

    func emailRecovered(email: String) -> PageText {
        PageText(heading: "आपका ईमेल पता वापस लाया गया है", paragraphs: ["आपका साइन-इन ईमेल पता फिर से \(email) है।"])
    }

    func secondFactorReverted(appName: String) -> PageText {
        PageText(heading: "दूसरा चरण हटा दिया गया", paragraphs: ["फिर से साइन इन करें। अगर किसी और ने इसे जोड़ा था, तो उन्हें आपका पासवर्ड पता हो सकता है: सुरक्षा के लिए इसे रीसेट करें।"])
    }

    var resetOffer: String {
        "अगर आपका पता किसी और ने बदला था, तो हो सकता है कि उसे आपका पासवर्ड पता हो। सुरक्षा के लिए अपना पासवर्ड रीसेट करें।"
    }
    var resetOfferButton: String { "पासवर्ड रीसेट ईमेल भेजें" }

    func resetMailSent(email: String) -> PageText {
        PageText(heading: "अपना ईमेल देखें", paragraphs: ["हमने पासवर्ड रीसेट करने का लिंक \(email) पर भेज दिया है।"])
    }

    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText {
        switch reason {
        case .expired:
            PageText(
                heading: "इस लिंक की समय-सीमा समाप्त हो गई है",
                paragraphs: ["इन ईमेल के लिंक केवल थोड़े समय के लिए काम करते हैं। \(appName) में नए लिंक का अनुरोध करें।"])
        case .invalid:
            PageText(
                heading: "यह लिंक मान्य नहीं है",
                paragraphs: ["हो सकता है कि लिंक बदल दिया गया हो या अधूरा कॉपी किया गया हो। \(appName) में नए लिंक का अनुरोध करें।"])
        case .used:
            PageText(
                heading: "इस लिंक का पहले ही उपयोग हो चुका है",
                paragraphs: ["हर लिंक केवल एक बार काम करता है। अगर आपको अब भी ज़रूरत है, तो \(appName) में नए लिंक का अनुरोध करें।"])
        case .unknownMode:
            PageText(
                heading: "यह लिंक समर्थित नहीं है",
                paragraphs: ["यह पेज इस तरह के लिंक को नहीं संभाल सकता। \(appName) में नए लिंक का अनुरोध करें।"])
        case .missingCode:
            PageText(
                heading: "यह लिंक अधूरा है",
                paragraphs: ["इस लिंक में उसका कोड नहीं है। ईमेल से इसे फिर से खोलें, या \(appName) में नए लिंक का अनुरोध करें।"])
        }
    }

    var continueLabel: String { "जारी रखें" }
}
