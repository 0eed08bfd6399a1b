// PhoneAuthProvider from C++, Firebase 10 (VerifyPhoneNumber(number, time-out, token, listener), Credential), as
// HEARTH_FIREBASE_LEGACY_API declares it: see phone_checks.h.
#include "phone_checks.h"

int main(int argc, char** argv) { return phone::Main(argc, argv); }
