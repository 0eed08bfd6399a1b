import HearthCore

/// Bengali (বাংলা), in the polite আপনি form.
struct Bengali: EmailActionStrings {
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText {
        switch kind {
        case .passwordReset:
            MailText(
                subject: "\(appName)-এর জন্য আপনার পাসওয়ার্ড রিসেট করুন",
                heading: "আপনার পাসওয়ার্ড রিসেট করুন",
                paragraphs: [
                    "কেউ \(email)-এর \(appName) অ্যাকাউন্টের পাসওয়ার্ড রিসেট করার অনুরোধ করেছেন।",
                    "নতুন পাসওয়ার্ড বেছে নিতে নিচের বোতামটি ব্যবহার করুন। এই লিঙ্কটি শুধু একবার কাজ করে এবং কিছুক্ষণ পরে এর মেয়াদ শেষ হয়ে যায়।",
                ],
                button: "পাসওয়ার্ড রিসেট করুন",
                footer: "আপনি পাসওয়ার্ড রিসেট করার অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন; আপনার পাসওয়ার্ড বদলাবে না।")
        case .verifyEmail:
            MailText(
                subject: "\(appName)-এর জন্য আপনার ইমেল ঠিকানা যাচাই করুন",
                heading: "আপনার ইমেল ঠিকানা যাচাই করুন",
                paragraphs: ["অনুগ্রহ করে নিশ্চিত করুন যে \(email) হলো \(appName)-এর জন্য আপনার ইমেল ঠিকানা।"],
                button: "ইমেল ঠিকানা যাচাই করুন",
                footer: "আপনি এই অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন।")
        case .emailSignIn:
            MailText(
                subject: "\(appName)-এ সাইন ইন করুন",
                heading: "\(appName)-এ সাইন ইন করুন",
                paragraphs: [
                    "কেউ \(email) হিসেবে \(appName)-এ সাইন ইন করার অনুরোধ করেছেন। সাইন ইন করতে নিচের বোতামটি ব্যবহার করুন। এই লিঙ্কটি শুধু একবার কাজ করে এবং কিছুক্ষণ পরে এর মেয়াদ শেষ হয়ে যায়।"
                ],
                button: "সাইন ইন করুন",
                footer: "আপনি সাইন ইন করার অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন।")
        case .verifyAndChangeEmail:
            MailText(
                subject: "\(appName)-এর জন্য আপনার নতুন ইমেল ঠিকানা নিশ্চিত করুন",
                heading: "আপনার নতুন ইমেল ঠিকানা নিশ্চিত করুন",
                paragraphs: [
                    "কেউ একটি \(appName) অ্যাকাউন্টের সাইন-ইন ইমেল ঠিকানা হিসেবে \(email) ব্যবহার করার অনুরোধ করেছেন।",
                    "এই পরিবর্তন নিশ্চিত করতে নিচের বোতামটি ব্যবহার করুন। আপনি নিশ্চিত না করা পর্যন্ত অ্যাকাউন্টের বর্তমান ঠিকানাই থাকবে।",
                ],
                button: "নতুন ঠিকানা নিশ্চিত করুন",
                footer: "আপনি এই অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন; কিছুই বদলাবে না।")
        case .recoverEmail:
            MailText(
                subject: "\(appName)-এর জন্য আপনার সাইন-ইন ইমেল ঠিকানা বদলানো হয়েছে",
                heading: "আপনার সাইন-ইন ইমেল ঠিকানা বদলানো হয়েছে",
                paragraphs: [
                    newEmail.map { "আপনার \(appName) অ্যাকাউন্টের সাইন-ইন ইমেল ঠিকানা \(email) থেকে বদলে \($0) করা হয়েছে।" }
                        ?? "আপনার \(appName) অ্যাকাউন্টের সাইন-ইন ইমেল ঠিকানা \(email) থেকে বদলে অন্য একটি ঠিকানা করা হয়েছে।",
                    "এই পরিবর্তন আপনি না করে থাকলে আপনার আগের ঠিকানা, \(email), ফিরিয়ে আনতে নিচের বোতামটি ব্যবহার করুন।",
                ],
                button: "আমার ইমেল ঠিকানা ফিরিয়ে আনুন",
                footer: "এই পরিবর্তন আপনি নিজেই করে থাকলে এই ইমেলটি উপেক্ষা করুন।")
        case .revertSecondFactorAddition:
            MailText(
                subject: "আপনার \(appName) অ্যাকাউন্টে সাইন-ইনের একটি দ্বিতীয় ধাপ যোগ করা হয়েছে",
                heading: "সাইন-ইনের দ্বিতীয় ধাপ যোগ করা হয়েছে",
                paragraphs: [
                    "\(email)-এর \(appName) অ্যাকাউন্টে সাইন-ইনের দ্বিতীয় ধাপ হিসেবে \(newEmail ?? "") যোগ করা হয়েছে।",
                    "আপনি যদি এটি যোগ না করে থাকেন, তাহলে এটি সরাতে এবং সব সাইন-ইন সেশন শেষ করতে নিচের বোতামটি ব্যবহার করুন।",
                ],
                button: "এই দ্বিতীয় ধাপটি সরান",
                footer: "আপনি নিজে এটি যোগ করে থাকলে এই ইমেলটি উপেক্ষা করতে পারেন।")
        }
    }

    func verificationSMS(code: String, appName: String) -> String { "\(code) হল \(appName)-এর জন্য আপনার যাচাইকরণ কোড।" }
    var linkHint: String { "বোতামটি কাজ না করলে এই লিঙ্কটি কপি করে আপনার ব্রাউজারে খুলুন:" }

    func resetPasswordForm(email: String) -> PageText {
        PageText(heading: "আপনার পাসওয়ার্ড রিসেট করুন", paragraphs: ["\(email)-এর জন্য একটি নতুন পাসওয়ার্ড বেছে নিন।"], button: "পাসওয়ার্ড সংরক্ষণ করুন")
    }

    var newPasswordLabel: String { "নতুন পাসওয়ার্ড" }
    var confirmPasswordLabel: String { "নতুন পাসওয়ার্ড নিশ্চিত করুন" }

    func resetFormError(_ error: ActionPage.ResetFormError) -> String {
        switch error {
        case .passwordsDiffer: "দুটি পাসওয়ার্ড মিলছে না।"
        case .tooShort(let minimumLength): "পাসওয়ার্ডে অন্তত \(minimumLength)টি অক্ষর থাকতে হবে।"
        case .requirementsNotMet: "এই পাসওয়ার্ডটি প্রয়োজনীয় শর্ত পূরণ করে না:"
        case .failed: "পাসওয়ার্ড বদলানো যায়নি। অনুগ্রহ করে আবার চেষ্টা করুন।"
        }
    }

    func resetPasswordDone() -> PageText {
        PageText(heading: "আপনার পাসওয়ার্ড বদলানো হয়েছে", paragraphs: ["এখন আপনি নতুন পাসওয়ার্ড দিয়ে সাইন ইন করতে পারবেন।"])
    }

    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText {
        switch kind {
        case .passwordReset:
            PageText(heading: "আপনার পাসওয়ার্ড রিসেট করুন", paragraphs: ["\(email)-এর জন্য নতুন পাসওয়ার্ড বেছে নিতে এগিয়ে যান।"], button: "এগিয়ে যান")
        case .verifyEmail:
            PageText(
                heading: "আপনার ইমেল ঠিকানা যাচাই করুন", paragraphs: ["নিশ্চিত করুন যে \(email) হলো \(appName)-এর জন্য আপনার ইমেল ঠিকানা।"],
                button: "ইমেল ঠিকানা যাচাই করুন")
        case .emailSignIn:
            PageText(heading: "\(appName)-এ সাইন ইন করুন", paragraphs: ["\(email) হিসেবে সাইন ইন করতে এগিয়ে যান।"], button: "সাইন ইন করুন")
        case .verifyAndChangeEmail:
            PageText(
                heading: "আপনার ইমেল ঠিকানা বদলান",
                paragraphs: ["নিশ্চিত করুন যে আপনি আপনার \(appName) অ্যাকাউন্টের সাইন-ইন ইমেল ঠিকানা হিসেবে \(newEmail ?? email) ব্যবহার করতে চান।"],
                button: "ইমেল ঠিকানা বদলান")
        case .recoverEmail:
            PageText(
                heading: "আপনার ইমেল ঠিকানা ফিরিয়ে আনুন",
                paragraphs: [
                    newEmail.map { "আপনার সাইন-ইন ইমেল ঠিকানা বদলে \($0) করা হয়েছিল। আপনার \(appName) অ্যাকাউন্টের সাইন-ইন ঠিকানা হিসেবে \(email) ফিরিয়ে আনুন।" }
                        ?? "আপনার \(appName) অ্যাকাউন্টের সাইন-ইন ইমেল ঠিকানা হিসেবে \(email) ফিরিয়ে আনুন।"
                ],
                button: "ইমেল ঠিকানা ফিরিয়ে আনুন")
        case .revertSecondFactorAddition:
            PageText(
                heading: "দ্বিতীয় ধাপটি সরান",
                paragraphs: ["আপনার \(appName) অ্যাকাউন্টের সাইন-ইনের দ্বিতীয় ধাপগুলো থেকে \(newEmail ?? "") সরান। সব সাইন-ইন সেশন শেষ হয়ে যাবে।"],
                button: "দ্বিতীয় ধাপ সরান")
        }
    }

    func emailVerified(appName: String) -> PageText {
        PageText(heading: "আপনার ইমেল ঠিকানা যাচাই করা হয়েছে", paragraphs: ["এখন আপনি এই ঠিকানা দিয়ে আপনার \(appName) অ্যাকাউন্ট ব্যবহার করতে পারবেন।"])
    }

    func emailChanged(newEmail: String) -> PageText {
        PageText(heading: "আপনার ইমেল ঠিকানা বদলানো হয়েছে", paragraphs: ["এখন থেকে \(newEmail) দিয়ে সাইন ইন করুন।"])
    }

    func emailRecovered(email: String) -> PageText {
        PageText(heading: "আপনার ইমেল ঠিকানা ফিরিয়ে আনা হয়েছে", paragraphs: ["আপনার সাইন-ইন ইমেল ঠিকানা আবার \(email)।"])
    }

    func secondFactorReverted(appName: String) -> PageText {
        PageText(heading: "দ্বিতীয় ধাপটি সরানো হয়েছে", paragraphs: ["আবার সাইন ইন করুন। অন্য কেউ এটি যোগ করে থাকলে তারা আপনার পাসওয়ার্ড জানতে পারে: নিরাপত্তার জন্য এটি রিসেট করুন।"])
    }

    var resetOffer: String {
        "অন্য কেউ আপনার ঠিকানা বদলে থাকলে তিনি হয়তো আপনার পাসওয়ার্ড জানেন। নিরাপদ থাকতে পাসওয়ার্ড রিসেট করুন।"
    }
    var resetOfferButton: String { "পাসওয়ার্ড রিসেটের ইমেল পাঠান" }

    func resetMailSent(email: String) -> PageText {
        PageText(heading: "আপনার ইমেল দেখুন", paragraphs: ["পাসওয়ার্ড রিসেট করার একটি লিঙ্ক আমরা \(email)-এ পাঠিয়েছি।"])
    }

    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText {
        switch reason {
        case .expired:
            PageText(
                heading: "এই লিঙ্কের মেয়াদ শেষ হয়ে গেছে",
                paragraphs: ["এই ইমেলগুলোর লিঙ্ক শুধু অল্প সময়ের জন্য কাজ করে। \(appName)-এ একটি নতুন লিঙ্কের অনুরোধ করুন।"])
        case .invalid:
            PageText(
                heading: "এই লিঙ্কটি সঠিক নয়",
                paragraphs: ["লিঙ্কটি হয়তো বদলানো হয়েছে বা আংশিক কপি করা হয়েছে। \(appName)-এ একটি নতুন লিঙ্কের অনুরোধ করুন।"])
        case .used:
            PageText(
                heading: "এই লিঙ্কটি আগেই ব্যবহার করা হয়েছে",
                paragraphs: ["প্রতিটি লিঙ্ক শুধু একবার কাজ করে। এখনও প্রয়োজন হলে \(appName)-এ একটি নতুন লিঙ্কের অনুরোধ করুন।"])
        case .unknownMode:
            PageText(
                heading: "এই লিঙ্কটি সমর্থিত নয়",
                paragraphs: ["এই পেজটি এই ধরনের লিঙ্ক পরিচালনা করতে পারে না। \(appName)-এ একটি নতুন লিঙ্কের অনুরোধ করুন।"])
        case .missingCode:
            PageText(
                heading: "এই লিঙ্কটি অসম্পূর্ণ",
                paragraphs: ["লিঙ্কটিতে এর কোড নেই। ইমেল থেকে এটি আবার খুলুন, অথবা \(appName)-এ একটি নতুন লিঙ্কের অনুরোধ করুন।"])
        }
    }

    var continueLabel: String { "চালিয়ে যান" }
}
