// The C++ API is header-only (include/hearth, include/firebase) so that each program compiles the API generation it
// chose; this file makes SwiftPM build the target and checks that the headers compile on their own.
#include "firebase/app.h"
#include "firebase/auth.h"
#include "firebase/future.h"
#include "firebase/variant.h"
