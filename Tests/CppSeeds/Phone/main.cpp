// PhoneAuthProvider from C++, Firebase 11 and later (PhoneAuthOptions, PhoneAuthCredential): see phone_checks.h.
#include "phone_checks.h"

int main(int argc, char** argv) { return phone::Main(argc, argv); }
